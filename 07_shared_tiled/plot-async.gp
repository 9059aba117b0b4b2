# Lesson 07 part 3's figure (ASYNC.md): every row of async_copy as % of the copy kernel of the same
# run (the table's "% copy krn" column), at 8192 x 8192 and at 8191 x 4097 (the @odd rows; the TMA
# rows have none: no tensor map can describe rows of 8191 floats).
# Drawn by `make plot` (common/plot.sh says what csv, out, gpu ... are).
# needs: async async_odd
eval svg(900, 520)
@footer

big = sprintf("< awk -F'\t' '$2 == \"async\" && $4 == \"ok\" && $3 != \"cudaMemcpy D2D\"' '%s'", all)
odd = sprintf("< awk -F'\t' 'FNR == NR && $2 == \"async\" && $4 == \"ok\" && $3 != \"cudaMemcpy D2D\" {i[$3] = n++} \
    FNR != NR && $2 == \"async_odd\" && $4 == \"ok\" {k = $3; sub(/ @odd$/, \"\", k); if (k in i) print i[k] \"\\t\" $13}' '%s' '%s'", all, all)
stats big using 13 nooutput
n = STATS_records
bh = 0.19

set title "Lesson 07 part 3: asynchronous copies, % of the copy kernel of the same run" font ',13'
set xlabel "% of the float4 copy kernel (copy float4 one pass) of the same bytes"
set xrange [0:112]
set xtics 0, 10, 100
set yrange [-n + 0.4:1.4]
set ytics nomirror scale 0 font ',11'
set grid x noy
set lmargin 26
set rmargin 3
set arrow 1 from 100, graph 0 to 100, graph 1 nohead back ls 5
set key top right horizontal font ',10'
set style fill solid 0.85 noborder
plot big using ($13 / 2):(-$0 + bh):($13 / 2):(bh * 0.9):ytic(3) with boxxyerror lc rgb C_GOOD title '8192 x 8192', \
     odd using ($2 / 2):(-$1 - bh):($2 / 2):(bh * 0.9) with boxxyerror lc rgb '#756bb1' title '8191 x 4097', \
     big using ($13 + 1):(-$0 + bh):(sprintf('%.1f', $13)) with labels left font ',9' notitle, \
     odd using ($2 + 1):(-$1 - bh):(sprintf('%.1f', $2)) with labels left font ',9' notitle
