# Sourced by make results and make answers (results.sh, answers.sh), with TARGET set to the make
# target's name: stops (exit 3) without a GPU, else sets what names a run -- gpu, driver, cuda
# (nvcc's release), day (UTC) and slug (the GPU's name as a folder of results/).
if ! nvidia-smi -L 2>/dev/null | grep -q '^GPU'; then
    echo "make $TARGET needs a GPU (nvidia-smi sees none). Nothing was changed."
    exit 3
fi
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader -i "${CUDA_VISIBLE_DEVICES:-0}" 2>/dev/null | head -1)
[ -n "$gpu" ] || gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
driver=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -1)
cuda=$(nvcc --version 2>/dev/null | sed -n 's/.*release \([0-9.]*\),.*/\1/p')
day=$(date -u +%F)
slug=$(echo "$gpu" | sed 's/[^A-Za-z0-9]\+/_/g; s/_$//')
