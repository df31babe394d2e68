/* ofc_observe.c -- what a seat sees (see ofc_game.h): the observation record filled
 * from a game, or completed from boards, dealt cards and counts by a caller without
 * a game. */
#include <string.h>

#include "ofc_game_internal.h"

/* ------------------------------------------------------------- observation */

/* Copy seat o's rows into the observation: every card, or only the face-up ones. */
static void observe_board(const ofc_game *g, uint32_t o, int show_all, int show_none,
                          ofc_observation *out)
{
    uint32_t row, i;
    for (row = 0; row < 3; row++) {
        uint32_t shown = 0, hidden = 0;
        for (i = 0; i < g->count[o][row]; i++) {
            uint32_t slot = ofc_row_start(row) + i;
            int down = g->face_down[o] >> slot & 1u;
            if (show_none || (down && !show_all))
                hidden++;
            else
                out->board[o][ofc_row_start(row) + shown++] = g->board[o][slot];
        }
        out->count[o][row] = (uint8_t)shown;
        out->face_down_count[o][row] = (uint8_t)hidden;
    }
}

/* Append step st to seat s's rounds still to come (a seat outside the table or a
 * round past OFC_GAME_MAX_ROUNDS, which no schedule makes, is left out: nothing is
 * written outside the record, whatever the state holds). */
static void add_round(ofc_observation *out, uint32_t s, const ofc_game_step *st)
{
    uint32_t i;
    if (s >= out->players || out->rounds[s] >= OFC_GAME_MAX_ROUNDS)
        return;
    i = out->rounds[s]++;
    out->round_n[s][i] = st->n;
    out->round_k[s][i] = st->k;
}

/* Fill out->rounds from a schedule whose first `done` decisions are made: the
 * observer's decisions after the ofc_gm_pending one, and every other seat's decisions not
 * made yet or made face down (hidden from the observer until the deal is over). */
static void observe_rounds(const ofc_game_step *steps, uint32_t nsteps, uint32_t done,
                           uint32_t seat, ofc_observation *out)
{
    uint32_t i;
    for (i = 0; i < nsteps && i < OFC_GAME_MAX_STEPS; i++) {
        const ofc_game_step *st = &steps[i];
        if (st->seat == seat ? i > done : (i >= done || st->face_down))
            add_round(out, st->seat, st);
    }
}

int32_t ofc_game_observe(const ofc_game *g, uint32_t seat, ofc_observation *out)
{
    const ofc_game_step *st;
    uint32_t o, over;
    ofc_decision d;
    if (g == NULL || out == NULL)
        return OFC_E_COUNT;
    if (ofc_bytes_overlap(out, sizeof *out, g, sizeof *g))
        return OFC_E_VALUE; /* out untouched: its writes would change the state read */
    st = ofc_gm_pending(g);
    over = st == NULL;
    if (seat >= g->players)
        return OFC_E_SEAT;
    memset(out, 0, sizeof *out);
    memset(out->board, OFC_NO_CARD, sizeof out->board);
    memset(out->discards, OFC_NO_CARD, sizeof out->discards);
    memset(out->dealt, OFC_NO_CARD, sizeof out->dealt);
    memset(out->declared, -1, sizeof out->declared);
    out->seat = (uint8_t)seat;
    out->players = g->players;
    out->button = g->button;
    out->kind = g->kind;
    out->is_over = (uint8_t)over;
    out->surrendered = g->surrendered;
    memcpy(out->fl, g->fl, sizeof out->fl);
    ofc_game_decision(g, &d);
    out->to_act = d.seat;
    out->street = d.street;
    for (o = 0; o < g->players; o++) {
        int own = o == seat;
        int surrendered = g->surrendered >> o & 1u;
        observe_board(g, o, own || over, over && surrendered && !own, out);
        out->discard_count[o] = g->ndiscards[o];
        if (own || over)
            out->declared[o] = g->declared[o];
    }
    memcpy(out->discards, g->discards[seat], g->ndiscards[seat]);
    if (!over && d.seat == seat) {
        out->n = d.n;
        out->k = d.k;
        out->full = d.full;
        out->face_down = d.face_down;
        out->future_cards = d.future_cards;
        out->future_discards = d.future_discards;
        memcpy(out->dealt, d.dealt, d.n);
    }
    if (!over)
        observe_rounds(g->steps, g->nsteps, g->step, seat, out);
    return OFC_OK;
}

/* The index of seat s's first decision not made when it has `placed` cards on its
 * board, or -1 when no prefix of its decisions places exactly that many. */
static int32_t first_open_step(const ofc_game *g, uint32_t s, uint32_t placed)
{
    uint32_t i, acc = 0;
    for (i = 0; i < g->nsteps; i++) {
        const ofc_game_step *st = &g->steps[i];
        if (st->seat != s)
            continue;
        if (acc == placed)
            return (int32_t)i;
        acc += (uint32_t)(st->n - st->k);
        if (acc > placed)
            return -1;
    }
    return acc == placed ? (int32_t)g->nsteps : -1;
}

/* No rounds to come for any seat. */
static void clear_rounds(ofc_observation *o)
{
    memset(o->rounds, 0, sizeof o->rounds);
    memset(o->round_n, 0, sizeof o->round_n);
    memset(o->round_k, 0, sizeof o->round_k);
}

int32_t ofc_observation_complete(const ofc_game_rules *r, ofc_observation *given)
{
    ofc_game tmp;
    ofc_observation local, *o = &local; /* completed here, copied out on success */
    uint32_t s, row, i, over = 1;
    int32_t own = -1;
    if (r == NULL || given == NULL)
        return r == NULL ? OFC_E_RULES : OFC_E_VALUE;
    if (ofc_game_rules_check(r) != OFC_OK)
        return OFC_E_RULES;
    local = *given;
    /* the deal's schedule: a game of these seats (its deck is not read) */
    if (o->seat >= o->players
        || ofc_game_init(r, &tmp, o->players, o->button, o->fl, 0, NULL) != OFC_OK)
        return OFC_E_SEATS;
    if (o->n > OFC_GAME_MAX_DEALT)
        return OFC_E_COUNT;
    o->kind = r->kind;
    o->is_over = 0;
    o->k = o->full = o->face_down = o->future_cards = o->future_discards = 0;
    clear_rounds(o);
    for (s = 0; s < o->players; s++) {
        uint32_t placed = 0, discarded = 0;
        int32_t open;
        for (row = 0; row < 3; row++) {
            uint32_t cards = (uint32_t)o->count[s][row] + o->face_down_count[s][row];
            if (cards > (uint32_t)(row == 0 ? 3 : 5))
                return OFC_E_COUNT;
            placed += cards;
        }
        open = first_open_step(&tmp, s, placed);
        if (open < 0)
            return OFC_E_COUNT;
        over &= open == (int32_t)tmp.nsteps;
        /* every decision of s before `open` is made, none after */
        for (i = 0; i < tmp.nsteps; i++) {
            const ofc_game_step *st = &tmp.steps[i];
            if (st->seat != s)
                continue;
            if ((int32_t)i < open)
                discarded += st->k;
            if (s == o->seat) {
                if ((int32_t)i == open && o->n)
                    own = (int32_t)i;
                else if ((int32_t)i > open || ((int32_t)i == open && !o->n))
                    add_round(o, s, st);
            } else if ((int32_t)i >= open || st->face_down) {
                add_round(o, s, st);
            }
        }
        if (o->discard_count[s] > discarded) /* more than its decisions made discard */
            return OFC_E_DISCARDS;
    }
    if (over && !o->n) { /* every decision made: as ofc_game_observe() of a deal over */
        ofc_decision d;
        tmp.step = tmp.nsteps;
        ofc_game_decision(&tmp, &d);
        o->is_over = 1;
        o->to_act = d.seat;
        o->street = d.street;
        clear_rounds(o);
    }
    if (o->n) {
        const ofc_game_step *st;
        if (own < 0 || tmp.steps[own].n != o->n)
            return OFC_E_COUNT;
        st = &tmp.steps[own];
        o->to_act = o->seat;
        o->k = st->k;
        o->full = st->full;
        o->face_down = st->face_down;
        o->street = st->street;
        for (i = 0; i < o->rounds[o->seat]; i++) {
            o->future_cards = (uint8_t)(o->future_cards + o->round_n[o->seat][i]);
            o->future_discards = (uint8_t)(o->future_discards + o->round_k[o->seat][i]);
        }
    }
    *given = local;
    return OFC_OK;
}
