#!/bin/sh
# The real-run accuracy figures of docs/accuracy.md: sample runs, a fit, and predictions scored
# against runs at sizes not sampled, for trapezoid and the halo-exchange Jacobi at P = 1, 2.
# Usage: sh benchmarks/real_accuracy.sh [OUTDIR]   (about two minutes on a 2-core machine)
set -e
OUT=${1:-/tmp/interp-accuracy}
mkdir -p "$OUT"
I="python -m interp"
experiment() {  # NAME FILE FIXED "SAMPLE SIZES" "PREDICTED SIZES" VAR
    name=$1 file=$2 fixed=$3 samples=$4 sizes=$5 var=$6
    rm -f "$OUT/${name}_samples.csv" "$OUT/${name}_actual.csv"
    for P in 1 2; do
        for n in $samples; do
            $I run "$file" -P $P --set $var=$n --set $fixed --repeat 3 --runs "$OUT/${name}_samples.csv" >/dev/null
        done
        for n in $sizes; do
            $I run "$file" -P $P --set $var=$n --set $fixed --repeat 3 --runs "$OUT/${name}_actual.csv" >/dev/null
        done
    done
    $I semiemp fit "$file" --runs "$OUT/${name}_samples.csv" -o "$OUT/${name}_model.json"
    for P in 1 2; do
        $I semiemp predict "$file" --model "$OUT/${name}_model.json" -P $P --actual "$OUT/${name}_actual.csv"
        $I semiemp predict "$file" --model "$OUT/${name}_model.json" -P $P --actual "$OUT/${name}_actual.csv" --format json > "$OUT/${name}_P$P.json"
    done
}
experiment trap programs/mpi_trapezoid/trap_mpi.f NITER=10 "2000000 4000000" "10000000 20000000 40000000" N
experiment jacobi programs/mpi_jacobi/jacobi_mpi.f NSTEP=100 "100000 200000" "400000 800000 1600000" N
experiment jacobi_big programs/mpi_jacobi/jacobi_mpi.f NSTEP=100 "400000 800000" "1600000 3200000" N
