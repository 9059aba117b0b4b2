# make plot: lesson 03's two curves from the program's --csv rows, as one PNG.
#   gnuplot -e "csv='build/curves.csv'; png='offset_stride.png'" plot.gp
# CSV columns: lesson,experiment,kernel,status,ms_median,ms_min,ms_max,bytes,gbs,pct_d2d,pct_peak,extra_name,extra
# The offset or stride is the number after '=' in the kernel label ("float s=12").
if (!exists("csv")) csv = 'build/curves.csv'
if (!exists("png")) png = 'offset_stride.png'
if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
    set terminal pngcairo size 1400,560 font ",11"
} else {
    set terminal png size 1400,560
}
set output png

# rows of one experiment as "x gbs extra" lines
rows(e) = sprintf("< awk -F, '$2==\"%s\" && $4==\"ok\" {split($3, p, \"=\"); print p[2]+0, $9, $13}' '%s'", e, csv)
d2d = system(sprintf("awk -F, '$3==\"cudaMemcpy D2D\" {print $9; exit}' '%s'", csv)) + 0

# a stored run (results/<GPU>/offset_stride.csv) names its GPU in the title
gpu = (strstrt(csv, "results/") > 0) ? csv[strstrt(csv, "results/") + 8:] : ''
gpu = (strstrt(gpu, "/") > 0) ? " - ".system(sprintf("echo '%s' | tr _ ' '", gpu[1:strstrt(gpu, "/") - 1])) : ''
set multiplot layout 1,2 title "Lesson 03: useful GB/s = (bytes read + bytes written) / time".gpu
set grid
set title "misaligned start: a[i + o] += 1"
set key bottom left
set xlabel "offset o (elements)"
set ylabel "GB/s"
set xrange [-1:33]
# headroom above the copy line (and above any offset point that beats it)
ytop = system(sprintf("awk -F, '$2 ~ /^offset_/ || $3 == \"cudaMemcpy D2D\" {if ($9 + 0 > m) m = $9 + 0} END {print m + 0}' '%s'", csv)) + 0
if (ytop > 0) { set yrange [0:1.12 * ytop] } else { set yrange [0:*] }
plot rows("offset_float") using 1:2 with linespoints pt 7 title "float", \
     rows("offset_double") using 1:2 with linespoints pt 5 title "double", \
     (d2d > 0 ? d2d : 1/0) with lines dashtype 3 lc rgb "gray40" title "cudaMemcpy D2D"

set title "strided: a[i * s] += 1 (dashed: the byte-count model)"
set xlabel "stride s (elements)"
set xrange [0:33]
set logscale y
set yrange [*:*]
set key top right
plot rows("stride_float") using 1:2 with linespoints pt 7 lc 1 title "float", \
     rows("stride_double") using 1:2 with linespoints pt 5 lc 2 title "double", \
     rows("stride_float4") using 1:2 with linespoints pt 9 lc 3 title "float4", \
     rows("stride_float") using 1:3 with lines dashtype 2 lc 1 title "float model", \
     rows("stride_double") using 1:3 with lines dashtype 2 lc 2 title "double model", \
     rows("stride_float4") using 1:3 with lines dashtype 2 lc 3 title "float4 model"
unset multiplot
