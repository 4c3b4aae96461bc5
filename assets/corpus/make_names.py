#!/usr/bin/env python3
"""Write names.txt and names.jobs: the bundled corpus `mha-explorer --train
names` learns to continue, one sentence a line, in which people are met and
then named again.

Each line brings in three people by first name and family name, drawn
afresh, then names two of them again by first name: the family name that
follows can only come from earlier in the same line ("ada moss met ben
hale and eva reed . later ben hale and ada moss sang"), never from the
words around it.
Finding it takes two steps: mark each word with the one before it, then
look for the place whose previous word is the name just read and copy what
stands there.  One layer of attention cannot chain the two; two layers can
(an induction head).

names.jobs has a line per line of names.txt and a tag per word: `copy` on
the family name said again (the in-context copy), `first` on the family
name said the first time (nothing in the line predicts it: a baseline),
'-' for the rest.

    python3 assets/corpus/make_names.py [FOLDER]   (default: beside it)
"""
import os
import random
import sys

SEED = 23
LINES = 4000

FIRST = ["ada", "ben", "cara", "dan", "eva", "finn", "gia", "hugo", "ivy", "jon", "kim", "leo",
         "mia", "ned", "oona", "piet", "rosa", "sam", "tara", "uri", "vera", "will", "yara",
         "zack"]
FAMILY = ["moss", "hale", "quinn", "stone", "reed", "frost", "marsh", "wood", "lake", "field",
          "brook", "hill", "vale", "ford", "shaw", "grant", "price", "cole", "dale", "west",
          "north", "pike", "rowe", "snow"]
MET = ["met", "saw", "called", "thanked", "visited", "helped"]
LATER = ["later", "then", "afterwards", "soon"]
DID = [["read"], ["sang"], ["left"], ["painted"], ["waited"], ["danced"], ["slept"], ["ate"]]


def line(rng):
    """One line's words and their jobs."""
    people = rng.sample(FIRST, 3)
    families = rng.sample(FAMILY, 3)
    words, jobs = [], []

    def say(ws, job="-"):
        for w in ws.split() if isinstance(ws, str) else ws:
            words.append(w)
            jobs.append(job)

    say(people[0])
    say(families[0], "first")
    say(rng.choice(MET))
    say(people[1])
    say(families[1], "first")
    say("and")
    say(people[2])
    say(families[2], "first")
    say(".")
    say(rng.choice(LATER))
    one, two = rng.sample(range(3), 2)
    say(people[one])
    say(families[one], "copy")
    say("and")
    say(people[two])
    say(families[two], "copy")
    say(rng.choice(DID))
    return words, jobs


def main():
    folder = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    rng = random.Random(SEED)
    text, tags = [], []
    for _ in range(LINES):
        words, jobs = line(rng)
        assert len(words) == len(jobs) and len(words) <= 16, words
        text.append(" ".join(words))
        tags.append(" ".join(jobs))
    with open(os.path.join(folder, "names.txt"), "w") as f:
        f.write("\n".join(text) + "\n")
    with open(os.path.join(folder, "names.jobs"), "w") as f:
        f.write("\n".join(tags) + "\n")


if __name__ == "__main__":
    main()
