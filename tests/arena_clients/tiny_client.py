"""A tiny, independent OFC wire-protocol client (standard library only), for the
conformance tests: plays the document's filler placement, and writes every line it
receives to the file named by argv[1] (if any).  argv[2] picks a misbehaviour for the
fault-injection tests: garbage, illegal, malformed, overlong, late, hang, exit, unknown;
argv[3] is how many seconds a "late" answer sleeps (default 0.6)."""

import json
import sys
import time

ROWS = {"top": 3, "middle": 5, "bottom": 5}
RANKS = "23456789TJQKA"
SUITS = "cdhs"


def card_index(text):
    return RANKS.index(text[0]) * 4 + SUITS.index(text[1])


def filler_answer(dealt, used, decision):
    """The document's filler placement as an ``action`` message: the dealt cards
    ascending, the first ``place`` each into the bottom, else the middle, else the
    top (``used``: cards already in each row); the rest discarded."""
    cards = sorted(dealt, key=card_index)
    placements = []
    free = {r: ROWS[r] - used[r] for r in ROWS}
    for c in cards[: decision["place"]]:
        row = next(r for r in ("bottom", "middle", "top") if free[r] > 0)
        free[row] -= 1
        placements.append({"card": c, "row": row})
    return {
        "t": "action",
        "action": {"placements": placements, "discards": cards[decision["place"] :]},
    }


class Seat:
    """What a client follows of the arena's messages: its seat this hand, its last
    dealt cards and how many cards each of its rows holds."""

    def __init__(self):
        self.seat, self.dealt, self.used = 0, [], {}

    def see(self, msg):
        """Follow one message (hand-start, event; anything else is left alone)."""
        t = msg.get("t")
        if t == "hand-start":
            self.seat, self.used = msg["seat"], {"top": 0, "middle": 0, "bottom": 0}
        elif t == "event":
            ev = msg["ev"]
            if ev.get("event") == "deal" and ev["seat"] == self.seat:
                self.dealt = ev["cards"]
            if ev.get("event") == "place" and ev["seat"] == self.seat:
                for p in ev["placements"]:  # the board as the arena played it
                    self.used[p["row"]] += 1

    def answer(self, msg):
        """The filler answer to an ``act``."""
        return filler_answer(self.dealt, self.used, msg["decision"])


def main():
    # the log stays open for the client's life (the process exit closes it)
    log = open(sys.argv[1], "w") if len(sys.argv) > 1 and sys.argv[1] != "-" else None  # noqa: SIM115
    mode = sys.argv[2] if len(sys.argv) > 2 else "good"
    late_s = float(sys.argv[3]) if len(sys.argv) > 3 else 0.6
    me, acts = Seat(), 0
    for line in sys.stdin:
        if log:
            log.write(line)
            log.flush()
        msg = json.loads(line)
        t = msg.get("t")
        me.see(msg)
        if t == "hello":
            print(json.dumps({"t": "join"}), flush=True)
        elif t == "act":
            acts += 1
            answer = me.answer(msg)
            placements = answer["action"]["placements"]
            cards = sorted(me.dealt, key=card_index)
            bad = acts % 3 == 2  # misbehave on every third decision
            if mode == "exit" and acts == 4:
                sys.exit(3)
            if mode == "hang" and acts == 4:
                time.sleep(600)
            if bad and mode == "garbage":
                print("this is not json {", flush=True)
            if bad and mode == "overlong":
                print("x" * (70 * 1024), flush=True)
            if bad and mode == "illegal":
                answer["action"]["placements"] = placements[:-1] if placements else []
                answer["action"]["discards"] = cards  # wrong counts
            if bad and mode == "malformed":
                answer["action"] = {"placements": "everything"}
            if bad and mode == "late":
                time.sleep(late_s)
            if bad and mode == "unknown":
                print(json.dumps({"t": "chatter", "x": 1}), flush=True)
            print(json.dumps(answer), flush=True)
        elif t == "match-end":
            break


if __name__ == "__main__":
    main()
