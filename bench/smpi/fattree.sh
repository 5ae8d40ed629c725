#!/bin/bash
# bench/smpi's platform, written once for run.sh, solve.sh and the smpi-solve test: a two-level fat tree of P
# hosts (16 per leaf switch, 2 below 32 hosts; one top switch), 12.5 GB/s and the given latency per link, hosts
# of 1 Gf/s. Writes <dir>/ft<P>_<lat>.xml and the host file <dir>/hosts<P>; prints the platform file's path.
# usage: fattree.sh <P> <link latency, us> <dir>
P=$1 l=$2 dir=$3 L=16
[ "$P" -lt 32 ] && L=2
N=$((P / L))
f=$dir/ft${P}_$l.xml
cat > "$f" <<XML
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <cluster id="ft" prefix="node-" suffix="" radical="0-$((P - 1))" speed="1Gf" bw="12.5GBps" lat="${l}us"
           topology="FAT_TREE" topo_parameters="2;$L,$N;1,$N;1,1" loopback_bw="100GBps" loopback_lat="0"/>
</platform>
XML
seq 0 $((P - 1)) | sed 's/^/node-/' > "$dir/hosts$P"
echo "$f"
