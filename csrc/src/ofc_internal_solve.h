/* ofc_internal_solve.h -- kernels shared by the solvers (ofc_solver.c) and the
 * heuristic bot's kernels (ofc_heuristic.c): the Fantasyland entry and stay rule (R-FL-1/3/9/10, R-27-6/7) over row strengths, the
 * one implementation behind ofc_fl_next_cards(), the solver and the bot's values.
 * Not part of the public API. */
#ifndef OFC_INTERNAL_SOLVE_H
#define OFC_INTERNAL_SOLVE_H

#include "ofc_internal.h"
#include "ofc_solver.h"

/* 2-7 value of 7-5-4-3-2 not all one suit: the nuts of a 2-7 middle. */
#define OFC_LOW27_NUTS 7462

static inline int ofc_fl_on(const ofc_fl_rules *fl) { return fl != NULL && fl->enabled; }

/* 1 when a legal board with these row strengths keeps Fantasyland. */
static inline int ofc_fl_stays_k(const ofc_fl_rules *fl, int lowball, const uint16_t s[3])
{
    return (fl->stay_front && s[0] >= fl->stay_front) ||
           (!lowball && fl->stay_middle && s[1] >= fl->stay_middle) ||
           (fl->stay_back && s[2] >= fl->stay_back);
}

/* Entry cards of a legal board: the best front threshold met gives the cards (ties:
 * the most cards); 2-7: a 7-5-4-3-2 middle gives lowball_entry alone, lowball_both
 * (when set) together with a front that enters, else the larger count. */
static inline int ofc_fl_entry_k(const ofc_fl_rules *fl, int lowball, const uint16_t s[3])
{
    int front = 0, best = -1, i;
    for (i = 0; i < fl->n_entry; i++) {
        int thr = fl->entry_front[i];
        if (s[0] >= thr && (thr > best || (thr == best && fl->entry_cards[i] > front))) {
            best = thr;
            front = fl->entry_cards[i];
        }
    }
    if (lowball && fl->lowball_entry && ofc_tab_low27[s[1]] == OFC_LOW27_NUTS) {
        if (front && fl->lowball_both) {
            return fl->lowball_both;
        }
        return front > fl->lowball_entry ? front : fl->lowball_entry;
    }
    return front;
}

/* The smallest count a board can enter with (entries and the 2-7 entry); 13 if none. */
static inline int ofc_fl_min_entry_k(const ofc_fl_rules *fl)
{
    int m = fl->lowball_entry, i;
    for (i = 0; i < fl->n_entry; i++) {
        if (!m || fl->entry_cards[i] < m) {
            m = fl->entry_cards[i];
        }
    }
    return m ? m : 13;
}

/* Cards of the next Fantasyland after a legal (not fouled) board: the entry rule for
 * a normal hand (in_fl = 0), the stay rule for an in_fl-card Fantasyland hand. */
static inline int ofc_fl_next_k(const ofc_fl_rules *fl, int lowball, int in_fl,
                                const uint16_t s[3])
{
    int e;
    if (!ofc_fl_on(fl)) {
        return 0;
    }
    if (in_fl == 0) {
        return ofc_fl_entry_k(fl, lowball, s);
    }
    if (!ofc_fl_stays_k(fl, lowball, s)) {
        return 0;
    }
    if (fl->stay_cards == OFC_FL_STAY_SAME) {
        return in_fl;
    }
    if (fl->stay_cards == OFC_FL_STAY_ENTRY) {
        e = ofc_fl_entry_k(fl, lowball, s);
        return e ? e : ofc_fl_min_entry_k(fl);
    }
    return fl->stay_cards;
}

#endif /* OFC_INTERNAL_SOLVE_H */
