"""The list of lessons (lessons.txt at the course's root), for the Python scripts."""
import os


def lessons(root):
    """[(folder, set of tags)] in the course's order."""
    out = []
    with open(os.path.join(root, "lessons.txt")) as f:
        for line in f:
            words = line.split("#", 1)[0].split()
            if words:
                out.append((words[0], set(words[1:])))
    return out


def lesson_names(root):
    return [name for name, _ in lessons(root)]


def tagged(root, tag):
    return {name for name, tags in lessons(root) if tag in tags}
