#!/bin/sh
# NPB EP and MG against real runs (docs/accuracy.md, "NPB EP and MG"): a spec of this machine
# (interp calibrate), sample runs at class S and a smaller size, semi-empirical fits with F on
# two specs (cluster and the calibrated local one), predictions at class W scored against real
# runs. The class is set through npbparams.h's PARAMETERs (`--set`, rewritten in run's copy).
# Usage: PYTHONPATH=. sh benchmarks/npb_accuracy.sh [OUTDIR]
set -e
OUT=${1:-/tmp/interp-npb-accuracy}
mkdir -p "$OUT"
I="python -m interp"
python - "$OUT" <<'PY'
import sys
from pathlib import Path
sys.path.insert(0, "benchmarks")
import npb_suite as n
tree = n.prepare(Path(sys.argv[1]))
for bench in ("EP", "MG"):
    msg = n.make_params(tree, bench, "S", 1)   # edited per run by --set
    assert not msg, msg
    (Path(sys.argv[1]) / f"{bench}.files").write_text(" ".join(map(str, n.sources(tree, bench))))
PY
$I calibrate -o "$OUT/local.yaml" --procs 1,2
EP=$(cat "$OUT/EP.files"); MG=$(cat "$OUT/MG.files")
ep() {  # P M CSV REPEAT
    $I run $EP -P $1 --set M=$2 --set NPM=$1 --repeat $4 --runs "$OUT/$3" >/dev/null
}
mg() {  # P NX CSV REPEAT   (setparams' values: lm = log2 NX, the z dimension split over P = 2)
    lm=$(python -c "import math; print(int(math.log2($2)))")
    z=$lm; [ "$1" = 2 ] && z=$((lm - 1))
    $I run $MG -P $1 --set NX_DEFAULT=$2 --set NY_DEFAULT=$2 --set NZ_DEFAULT=$2 --set LM=$lm \
        --set LT_DEFAULT=$lm --set NDIM1=$lm --set NDIM2=$lm --set NDIM3=$z \
        --set NPROCS_COMPILED=$1 --repeat $4 --runs "$OUT/$3" >/dev/null
}
if [ -z "$SKIP_RUNS" ]; then   # SKIP_RUNS=1: fit and predict from the runs already in OUT
rm -f "$OUT"/*_samples.csv "$OUT"/*_actual.csv
for P in 1 2; do
    for m in 22 24; do ep $P $m ep_samples.csv 3; done          # 24: class S
    ep $P 25 ep_actual.csv 2                                      # class W
    for nx in 16 32; do mg $P $nx mg_samples.csv 3; done        # 32: class S
    for nx in 64 128; do mg $P $nx mg_actual.csv 2; done        # 128: class W
done
fi
# MG again with samples at 32 and 64 (S and the size between), predicting 128 (W) only
python - "$OUT" <<'PY'
import csv, sys
out = sys.argv[1]
rows, header = [], None
for name in ("mg_samples.csv", "mg_actual.csv"):
    with open(f"{out}/{name}") as fh:
        r = csv.DictReader(fh)
        header, rows = r.fieldnames, rows + list(r)
for name, sizes in (("mg2_samples.csv", ("32", "64")), ("mg2_actual.csv", ("128",))):
    with open(f"{out}/{name}", "w", newline="") as fh:
        w = csv.DictWriter(fh, header)
        w.writeheader()
        w.writerows(x for x in rows
                    if dict(kv.split("=") for kv in x["inputs"].split(";"))["NX_DEFAULT"] in sizes)
PY
for b in ep mg mg2; do
    files=$EP; [ $b != ep ] && files=$MG
    for spec in cluster "$OUT/local.yaml"; do
        tag=$(basename "$spec" .yaml)
        $I semiemp fit $files --runs "$OUT/${b}_samples.csv" --spec "$spec" -o "$OUT/${b}_${tag}.json"
        for P in 1 2; do
            # (|| true: MG at class W, P = 2 on cluster stops in interp's engine; docs/accuracy.md)
            $I semiemp predict $files --model "$OUT/${b}_${tag}.json" -P $P --actual "$OUT/${b}_actual.csv" || true
            $I semiemp predict $files --model "$OUT/${b}_${tag}.json" -P $P --actual "$OUT/${b}_actual.csv" --format json > "$OUT/${b}_${tag}_P$P.json" || true
        done
    done
done
