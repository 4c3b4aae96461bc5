#!/usr/bin/env python3
"""Write sentences.txt and sentences.jobs: the bundled corpus that
`mha-explorer --train sentences` learns to continue, one sentence a line.

Every sentence comes from the small grammar below (words chosen by a seeded
generator, so the same script always writes the same files).  Three kinds
of regularity run through it, each needing something different from one
attention layer:

  local    the next word follows from the word just read ("didn't" ->
           "cross", "because" -> "it", a preposition -> "the")
  agree    the verb after a subject and a prepositional phrase agrees with
           the subject, not with the nearer noun ("the keys to the cabinet
           are", "the key to the cabinets is")
  content  a word chosen by the sentence's subject ("the cat sat on the
           mat", "the dog slept on the rug")
  long     a verb that needs two words from far back at once: its sound
           from the animal copied, its number from the subject, past other
           animals in both numbers ("the cats by the cow copied the dogs
           and now purr"): a head can look at one of them cleanly, so one
           head must mix the two and read both back out of the mixture

sentences.jobs has a line per line of sentences.txt and a tag per word:
the job that predicting that word tests, '-' for none.

    python3 assets/corpus/make_sentences.py [FOLDER]   (default: beside it)
"""
import os
import random
import sys

SEED = 19
LINES = 4000

# content: an animal and where it rests, how it rests
ANIMALS = {
    "cat": "mat", "dog": "rug", "bird": "branch", "fox": "log",
    "cow": "grass", "duck": "pond", "mouse": "shelf", "horse": "hay",
    "owl": "roof", "frog": "stone", "bee": "flower", "pig": "mud",
}
REST = ["sat", "slept", "lay", "waited", "stayed", "rested", "stood"]
LOOKS = ["little", "big", "young", "old", "brown", "black", "white", "grey", "sleepy", "small"]
THINGS = ["warm", "soft", "wet", "dry", "green", "dark", "cold", "long", "flat", "quiet"]
WHEN = [[], [], ["all", "day"], ["at", "night"], ["again"], ["in", "the", "morning"],
        ["after", "lunch"], ["for", "an", "hour"]]

# agree: nouns in both numbers, prepositions, what the subject is or does
NOUNS = [
    ("key", "keys"), ("book", "books"), ("box", "boxes"), ("cup", "cups"),
    ("lamp", "lamps"), ("coat", "coats"), ("map", "maps"), ("letter", "letters"),
    ("bell", "bells"), ("chair", "chairs"), ("plate", "plates"), ("picture", "pictures"),
]
PLACES = [
    ("cabinet", "cabinets"), ("table", "tables"), ("door", "doors"), ("window", "windows"),
    ("kitchen", "kitchens"), ("garden", "gardens"), ("teacher", "teachers"),
    ("student", "students"), ("station", "stations"), ("office", "offices"),
]
PREPS = ["to", "near", "behind", "by", "under", "beside", "for"]
COMPLEMENTS = [
    ["old"], ["new"], ["broken"], ["here"], ["missing"], ["heavy"], ["small"],
    ["on", "the", "floor"], ["in", "the", "hall"], ["very", "old"], ["too", "heavy"],
]
PAST = {"is": "was", "are": "were"}

# long: what each animal says, in the plural and the singular
SOUNDS = {
    "bee": ("buzz", "buzzes"), "bird": ("sing", "sings"), "cat": ("purr", "purrs"),
    "cow": ("moo", "moos"), "dog": ("bark", "barks"), "duck": ("quack", "quacks"),
    "fox": ("yelp", "yelps"), "frog": ("croak", "croaks"), "horse": ("neigh", "neighs"),
    "mouse": ("squeak", "squeaks"), "owl": ("hoot", "hoots"), "pig": ("grunt", "grunts"),
}
MANY = {"mouse": "mice", "fox": "foxes"}

# the documents' two sentences and their family
AGENTS = {"animal": "tired", "chicken": "scared", "child": "small", "old man": "slow",
          "dog": "hungry", "horse": "tired"}
CROSSED = {"street": "wide", "road": "wide", "river": "deep", "bridge": "narrow",
           "field": "muddy"}


def the(noun):
    return ["the"] + noun.split()


def maybe(rng, words, share=0.5):
    return [rng.choice(words)] if rng.random() < share else []


def rest_sentence(rng):
    animal = rng.choice(sorted(ANIMALS))
    words = ["the"] + maybe(rng, LOOKS) + [animal, rng.choice(REST), "on", "the"]
    jobs = ["-"] * len(words)
    jobs[-2] = "local"                # "on" after the verb
    jobs[-1] = "local"                # "the" after "on"
    words += maybe(rng, THINGS, 0.4)
    jobs += ["-"] * (len(words) - len(jobs))
    words.append(ANIMALS[animal])
    jobs.append("content")            # the place chosen by the animal
    words += rng.choice(WHEN) + ["."]
    jobs += ["-"] * (len(words) - len(jobs))
    return words, jobs


def agree_sentence(rng):
    noun = rng.choice(NOUNS)
    place = rng.choice(PLACES)
    plural = rng.random() < 0.5
    near_plural = rng.random() < 0.5
    verb = "are" if plural else "is"
    words = ["the"] + maybe(rng, THINGS, 0.3) + [noun[plural], rng.choice(PREPS), "the"]
    jobs = ["-"] * len(words)
    jobs[-1] = "local"                # "the" after a preposition
    words += maybe(rng, LOOKS, 0.3) + [place[near_plural], verb]
    jobs += ["-"] * (len(words) - len(jobs))
    jobs[-1] = "agree"
    words += rng.choice(COMPLEMENTS) + ["."]
    jobs += ["-"] * (len(words) - len(jobs))
    return words, jobs


def plain_agree_sentence(rng):
    noun = rng.choice(NOUNS)
    plural = rng.random() < 0.5
    verb = "are" if plural else "is"
    if rng.random() < 0.3:
        verb = PAST[verb]
    words = ["the"] + maybe(rng, THINGS, 0.5) + [noun[plural], verb]
    jobs = ["-"] * len(words)
    jobs[-1] = "agree"
    words += rng.choice(COMPLEMENTS) + ["."]
    jobs += ["-"] * (len(words) - len(jobs))
    return words, jobs


def herd(animal, plural):
    return (MANY.get(animal, animal + "s") if plural else animal)


def copy_sentence(rng):
    subject, nearby, copied = rng.sample(sorted(SOUNDS), 3)
    plural = rng.random() < 0.5
    words = ["the"] + maybe(rng, LOOKS, 0.3) + [herd(subject, plural)]
    words += [rng.choice(["by", "near", "behind"]), "the", herd(nearby, rng.random() < 0.5)]
    words += ["copied", "the", herd(copied, rng.random() < 0.5), "and", "now"]
    jobs = ["-"] * len(words)
    words += [SOUNDS[copied][0 if plural else 1], "."]
    jobs += ["long", "-"]             # the copied animal's sound, the subject's number
    return words, jobs


def cross_sentence(rng):
    agent = rng.choice(sorted(AGENTS))
    place = rng.choice(sorted(CROSSED))
    about_agent = rng.random() < 0.5
    adjective = AGENTS[agent] if about_agent else CROSSED[place]
    words = ["the"] + maybe(rng, LOOKS, 0.4) + agent.split()
    words += [rng.choice(["didn't", "couldn't", "wouldn't"]), "cross", "the"]
    words += maybe(rng, THINGS, 0.4) + [place, "because", "it", "was", rng.choice(["too", "so"])]
    words += [adjective] + rng.choice([[], [], ["that", "day"], ["after", "the", "rain"]]) + ["."]
    jobs = ["-"] * len(words)
    at = words.index("cross") - 1
    jobs[at + 1] = "local"            # "cross" after "didn't"
    jobs[at + 2] = "local"            # "the" after "cross"
    jobs[words.index("because") + 1] = "local"   # "it" after "because"
    return words, jobs


def main():
    folder = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    rng = random.Random(SEED)
    makers = [(rest_sentence, 0.18), (agree_sentence, 0.24), (plain_agree_sentence, 0.06),
              (cross_sentence, 0.12), (copy_sentence, 0.4)]
    lines, tags = [], []
    # the documents' own sentences first, as they wrote them
    for words, jobs in ([
        ("the animal didn't cross the street because it was too tired .".split(), None),
        ("the chicken didn't cross the road because it was too wide .".split(), None),
        ("the cat sat on the mat .".split(), None),
    ]):
        lines.append(words)
        tags.append(["-"] * len(words))
    while len(lines) < LINES:
        r = rng.random()
        for make, share in makers:
            if r < share:
                break
            r -= share
        words, jobs = make(rng)
        lines.append(words)
        tags.append(jobs)
    with open(os.path.join(folder, "sentences.txt"), "w", encoding="utf-8", newline="\n") as f:
        for words in lines:
            f.write(" ".join(words) + "\n")
    with open(os.path.join(folder, "sentences.jobs"), "w", encoding="utf-8", newline="\n") as f:
        for jobs in tags:
            f.write(" ".join(jobs) + "\n")


if __name__ == "__main__":
    main()
