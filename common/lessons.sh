# The list of lessons (lessons.txt at the course's root), for the scripts: source it, then
#   course_lessons ROOT      prints every lesson folder, one per line, in order
#   course_lesson_dirs ROOT  the same as paths (ROOT/folder)
# shellcheck shell=bash
course_lessons() {
    sed -e 's/#.*//' "$1/lessons.txt" | awk 'NF {print $1}'
}
course_lesson_dirs() {
    local l
    for l in $(course_lessons "$1"); do echo "$1/$l"; done
}
