#!/usr/bin/env bash
# 30 followers of one teacher: CPU and memory
EXE=$1; N=${2:-30}
D=$(mktemp -d); cd "$D"
export TMUX_TMPDIR=$D # its socket goes with the folder
T() { tmux -L class30 -f /dev/null "$@"; }
T new-session -d -s teach -x 100 -y 30 "cd $D && TERM=xterm-256color $EXE --record class.rec --lesson 7; sleep 600"
sleep 1
for i in $(seq 1 $N); do T new-session -d -s s$i -x 80 -y 24 "cd $D && TERM=xterm-256color $EXE --follow class.rec; sleep 600"; done
sleep 3
pids=$(pgrep -f -- "--follow class.rec" | while read p; do [ "$(cat /proc/$p/comm)" = mha-explorer ] && echo $p; done)
n=$(echo $pids | wc -w)
cpu() { local s=0; for p in $pids; do read -r -a f < /proc/$p/stat; s=$((s + f[13] + f[14])); done; echo $s; }
hz=$(getconf CLK_TCK)
c0=$(cpu); sleep 20; c1=$(cpu)
echo "followers: $n; idle 20 s: $(( (c1-c0) ))/$hz CPU-seconds in all => per follower $(python3 -c "print(round(($c1-$c0)/$hz/20/$n*100,3))")% of a core"
c0=$(cpu)
for k in 1 2 3 4 5 6 7 8 9 10; do T send-keys -t teach Space; sleep 1; done
c1=$(cpu)
echo "10 teacher keys over 10 s: per follower $(python3 -c "print(round(($c1-$c0)/$hz/10/$n*100,3))")% of a core"
rss=0; for p in $pids; do r=$(awk '/VmRSS/{print $2}' /proc/$p/status); rss=$((rss + r)); done
echo "RSS: $((rss/1024)) MB in all, $((rss/n/1024)) MB per follower"
T capture-pane -p -t s$N | tail -1
T kill-server; cd /; rm -rf "$D"
