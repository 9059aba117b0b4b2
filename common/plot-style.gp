# The prologue of every figure: common/plot.sh runs gnuplot with this file first, then the
# lesson's plot-<name>.gp, with these variables set on the command line (-e):
#   csv, csv2, ...  the run(s) to draw, in the order given (default: the lesson's programs' CSV under
#                   results/<GPU>/, in PROGS order), converted to tab-separated rows, header removed,
#                   quotes dropped: lesson, experiment, kernel, status, ms_median, ms_min, ms_max,
#                   bytes, gbs, pct_d2d, pct_peak, extra_name, extra  (columns 1..13)
#   ncsv            how many files: csv is the first, csv2 the second, ...
#   csvname, csvname2, ...   the files' names (without their folder)
#   all             every row of every file, one after the other
#   out             the SVG to write (a temporary file; plot.sh moves it in place when it is drawn)
#   gpu, cuda, driver, date   from results/<GPU>/run.txt beside the CSV ('' when there is none)
#   lesson          the lesson's folder name
# A figure sets its size with `eval svg(W, H)` and may put the run's footer on it with
# `@footer` (once: in a multiplot, before the first plot, then `@nofooter`).
# The SVG terminal writes no timestamp and no file name: the same CSV gives the same bytes.

set datafile separator "\t"
set datafile missing ""

svg(w, h) = sprintf("set terminal svg size %d,%d fixed noenhanced font 'Helvetica,12' linewidth 1.2 background rgb 'white'; set output '%s'", w, h, out)

# the run's footer: GPU, toolkit and date of `make results`
run_desc = (gpu eq '' ? 'GPU and date not recorded (no run.txt beside the CSV)' : \
            gpu . (cuda eq '' ? '' : ', CUDA ' . cuda) . (driver eq '' ? '' : ', driver ' . driver) . \
            (date eq '' ? '' : ', ' . date))
footer = "set label 99 run_desc at screen 0.995, 0.015 right font ',10' textcolor rgb '#555555'"
nofooter = "unset label 99"

# colours: one meaning each, in every figure
C_GOOD  = '#1f6fb4'    # coalesced / the lesson's good pattern
C_BAD   = '#d95f02'    # strided / the pattern the lesson warns about
C_MID   = '#7b5ea7'    # a third series
C_MODEL = '#444444'    # a model
C_COPY  = '#2e8b57'    # cudaMemcpy D2D, the practical ceiling
C_PEAK  = '#999999'    # the theoretical peak

set style line 1 lc rgb C_GOOD lw 2 pt 7 ps 0.8
set style line 2 lc rgb C_BAD lw 2 pt 5 ps 0.8
set style line 3 lc rgb C_MID lw 2 pt 9 ps 0.9
set style line 4 lc rgb C_MODEL lw 1.5 dt 2
set style line 5 lc rgb C_COPY lw 1.5 dt 3
set style line 6 lc rgb C_PEAK lw 1.2 dt 4
set grid lc rgb '#dddddd' lw 1
set border lc rgb '#444444'
set tics textcolor rgb '#222222'
set key noautotitle
set bmargin 5       # room for the x label and, below it, the footer

# rows(file, re): the rows of `file` whose experiment matches the regular expression re (anchored)
# and whose status is ok, in file order; column 0 numbers them 0, 1, 2 ...
rows(file, re) = sprintf("< awk -F'\t' '$2 ~ /^(%s)$/ && $4 == \"ok\"' '%s'", re, file)
# the same without repeating a kernel already listed (first occurrence wins)
urows(file, re) = sprintf("< awk -F'\t' '$2 ~ /^(%s)$/ && $4 == \"ok\" && !seen[$3]++' '%s'", re, file)
# field(file, exp, kernel, col): one field of the first matching row, NaN when there is none
field_s(file, e, k, c) = system(sprintf("awk -F'\t' '$2 == \"%s\" && $3 == \"%s\" {print $%d; exit}' '%s'", e, k, c, file))
field(file, e, k, c) = (field_s(file, e, k, c) eq '' ? NaN : real(field_s(file, e, k, c)))
# file i of the run(s): csv, csv2, csv3 ...
csvfile(i) = (i == 1 ? csv : value(sprintf('csv%d', i)))
csvfilename(i) = (i == 1 ? csvname : value(sprintf('csvname%d', i)))
# the number after '=' in a label such as "float s=12" or "gather S=64 B"
after_eq(s) = real(substr(s, strstrt(s, '=') + 1, strlen(s)) . ' ')
# column c as a number, or d where the field is empty (a using spec with $c skips such rows)
num(c, d) = (strcol(c) eq '' ? d : real(strcol(c)))
fmt0(x) = sprintf('%.0f', x)
fmt1(x) = sprintf('%.1f', x)
