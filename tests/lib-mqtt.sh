# Sourced by tests/check-mqtt.sh and tests/bench-broadcast.sh: free ports, a private
# mosquitto, and the processes to stop at the end (pids, killed by cleanup on EXIT; the
# caller sets work).
# Debian installs the broker as /usr/sbin/mosquitto, which is not on a plain user's PATH.
PATH=$PATH:/usr/sbin:/sbin
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	for p in "${pids[@]}"; do wait "$p" 2>/dev/null; done
	rm -rf "$work"
}
trap cleanup EXIT
free_port() {
	python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}
wait_port() { # PORT: until something listens there
	for _ in $(seq 100); do
		python3 -c 'import socket,sys; socket.create_connection(("127.0.0.1",int(sys.argv[1])),0.2)' \
			"$1" 2>/dev/null && return 0
		sleep 0.05
	done
	return 1
}
# The broker runs as whoever runs the test, so it can read its files here.
broker_pid=""
start_broker() { # CONF: its log is CONF.log
	mosquitto -c "$1" >>"$1.log" 2>&1 &
	broker_pid=$!
	pids+=($broker_pid)
}
stop_pid() {
	kill "$1" 2>/dev/null
	wait "$1" 2>/dev/null
}
