# Lesson 03's second figure: the strided sweep per element.  Elements per second (each element
# read and written once: GB/s / (2 x its size)) against the byte stride d = s x element size.
# If the cost of a strided access is the sectors it touches, float, double and float4 fall onto
# one curve.  Drawn by `make plot` (common/plot.sh says what csv, out, gpu ... are).
# needs: stride_float stride_double stride_float4
eval svg(900, 480)
@footer

set title "Lesson 03: per element only the byte stride counts (float, double and float4 on one curve)"
set xlabel "byte stride d = s x element size (bytes between neighbouring lanes)"
set ylabel "10^9 elements per second (each read and written once)"
set logscale xy 2
set xrange [3:700]
set xtics ("4" 4, "8" 8, "16" 16, "32" 32, "64" 64, "128" 128, "256" 256, "512" 512)
set yrange [8:400]
set ytics ("8" 8, "16" 16, "32" 32, "64" 64, "128" 128, "256" 256)
set key top right Left reverse spacing 1.2
# the 32-byte sector: past it every element needs a sector of its own
set arrow 1 from 32, graph 0 to 32, graph 1 nohead lc rgb '#bbbbbb' dt 2
set label 1 "d = 32 B: one sector per element" at 32, graph 0.06 offset 0.5, 0 font ',10' textcolor rgb '#666666'
plot rows(csv, 'stride_float') using (4 * after_eq(strcol(3))):($9 / 8) with linespoints ls 1 ps 0.6 title "float (4 B), s = 1..32", \
     rows(csv, 'stride_double') using (8 * after_eq(strcol(3))):($9 / 16) with linespoints ls 2 ps 0.6 title "double (8 B)", \
     rows(csv, 'stride_float4') using (16 * after_eq(strcol(3))):($9 / 32) with linespoints ls 3 ps 0.6 title "float4 (16 B)", \
     rows(csv, 'stride_float') using (4 * after_eq(strcol(3))):($13 / 8) with lines lc rgb C_MODEL lw 1.2 dt 2 title "the byte-count model (each type)", \
     rows(csv, 'stride_double') using (8 * after_eq(strcol(3))):($13 / 16) with lines lc rgb C_MODEL lw 1.2 dt 2, \
     rows(csv, 'stride_float4') using (16 * after_eq(strcol(3))):($13 / 32) with lines lc rgb C_MODEL lw 1.2 dt 2
