// The room page: every board from /api/boards, polled each second; the running clock
// counts down between polls.  Moves and results go to a polite live region.
"use strict";
var boards = [], fetchedAt = 0, lastSeen = {}, shown = "";

function hms(ms) {
	if (ms === undefined || ms === null) return "–";
	ms = Math.max(0, ms);
	var s = Math.floor(ms / 1000), h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60;
	s = s % 60;
	return h + ":" + (m < 10 ? "0" : "") + m + ":" + (s < 10 ? "0" : "") + s;
}

function remaining(b, side) {
	var c = b.clock || {}, ms = c[side + "_ms"];
	if (ms === undefined) return undefined;
	if (c.running === side && c.state === "running")
		ms -= (c.age_ms || 0) + (Date.now() - fetchedAt);
	return ms;
}

function text(el, tag, content, cls) {
	var e = document.createElement(tag);
	if (cls) e.className = cls;
	e.textContent = content;
	el.appendChild(e);
	return e;
}

function render() {
	var list = document.getElementById("boards");
	list.textContent = "";
	boards.forEach(function (b) {
		var t = b.tags || {}, li = document.createElement("li");
		var title = (t.Board && t.Board !== "?" ? "Board " + t.Board + ": " : "") +
			(t.White || "?") + " – " + (t.Black || "?");
		text(li, "h3", title);
		var clocks = document.createElement("div");
		clocks.className = "clocks";
		["white", "black"].forEach(function (side) {
			var c = document.createElement("p"), running = b.clock && b.clock.running === side;
			c.className = "clock" + (running ? " running" : "");
			text(c, "span", (side === "white" ? "White" : "Black") + (running ? " (to move)" : ""));
			var time = text(c, "span", hms(remaining(b, side)), "time");
			time.dataset.board = b.name;
			time.dataset.side = side;
			clocks.appendChild(c);
		});
		li.appendChild(clocks);
		text(li, "p", "Moves: " + Math.ceil((b.plies || 0) / 2) +
			(b.last_move ? ", last " + b.last_move : "") +
			(b.result && b.result !== "*" ? ", result " + b.result : ""), "meta");
		text(li, "p", "Board " + b.name + ", " + (t.Event || "") + " round " + (t.Round || "?"), "meta");
		list.appendChild(li);
	});
}

function tick() {
	document.querySelectorAll(".time").forEach(function (el) {
		var b = boards.find(function (x) { return x.name === el.dataset.board; });
		if (b) el.textContent = hms(remaining(b, el.dataset.side));
	});
}

function announce(fresh) {
	var news = [];
	fresh.forEach(function (b) {
		var key = b.plies + " " + b.result, t = b.tags || {};
		if (lastSeen[b.name] !== undefined && lastSeen[b.name] !== key)
			news.push((t.Board ? "Board " + t.Board : b.name) + ": " +
				(b.result && b.result !== "*" ? "result " + b.result : (b.last_move || "")));
		lastSeen[b.name] = key;
	});
	if (news.length) document.getElementById("news").textContent = news.join(". ");
}

// The status line is a live region: written only when it says something new.
function say(t) {
	var el = document.getElementById("state");
	if (el.textContent !== t) el.textContent = t;
}

function poll() {
	fetch("/api/boards", { cache: "no-store" }).then(function (r) { return r.json(); })
		.then(function (j) {
			fetchedAt = Date.now();
			announce(j.boards);
			boards = j.boards;
			// Redrawn only when something changed, so a screen reader's place is kept.
			var sig = JSON.stringify(boards.map(function (b) {
				return [b.name, b.tags, b.plies, b.result, b.last_move, b.clock.running];
			}));
			if (sig !== shown) {
				shown = sig;
				render();
			}
			say(boards.length + (boards.length === 1 ? " board" : " boards"));
		}).catch(function () {
			say("The relay cannot be reached; trying again.");
		});
}

poll();
setInterval(poll, 2000);
setInterval(tick, 250);
