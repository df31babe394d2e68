/* ofc_status.c -- the one message of each status code (ofc_status_string()). */
#include "ofc_fast.h"
#include "ofc_model.h"
#include "ofc_search.h"
#include "ofc_vecenv.h"

#define TEXT_(x) #x
#define TEXT(x) TEXT_(x) /* a macro's value as a string literal */

/* Codes of ofc_fast.h and ofc_solver.h. */
static const char *core_status(int32_t status)
{
    switch (status) {
    case OFC_OK: return "success";
    case OFC_E_CARD: return "card id outside 0..51";
    case OFC_E_DUPLICATE: return "the same card twice";
    case OFC_E_COUNT:
        return "wrong number of cards, a count or range out of bounds, or a NULL pointer";
    case OFC_E_STRENGTH: return "strength outside the scale (or of the wrong kind)";
    case OFC_E_RULES: return "a rule set NULL or with a field out of range";
    case OFC_E_MEMORY: return "out of memory";
    case OFC_E_VALUE: return "a value argument out of range (or a NULL pointer)";
    case OFC_E_BUDGET: return "the exact search tree does not fit the node budget";
    case OFC_E_STOPPED: return "the search was stopped before its end (its caller's stop word)";
    default: return NULL;
    }
}

/* Codes of ofc_settle.h. */
static const char *settle_status(int32_t status)
{
    switch (status) {
    case OFC_E_SEAT: return "player count, button or seat outside the table";
    case OFC_E_MAX_PLAYERS: return "more players than the table rules allow";
    case OFC_E_SURRENDER: return "the rules do not allow surrender";
    case OFC_E_CONFLICT: return "a seat cannot both surrender and declare a natural";
    case OFC_E_NO_NATURALS: return "a natural was declared but the rules play none";
    case OFC_E_NATURAL:
        return "the rules do not pay that natural or the cards do not make it";
    case OFC_E_HIDDEN: return "the aces side bet needs every seat's cards";
    case OFC_E_STACKS: return "a stack outside 0..OFC_STACK_MAX";
    default: return NULL;
    }
}

/* Codes of ofc_game.h and ofc_vecenv.h. */
static const char *game_status(int32_t status)
{
    switch (status) {
    case OFC_E_GAME_OVER: return "the deal is over: no more moves";
    case OFC_E_NOT_DEALT: return "a card of the move was not dealt to the seat";
    case OFC_E_ROW_FULL: return "the move puts more cards in a row than it has room for";
    case OFC_E_DISCARDS: return "the move discards the wrong number of cards";
    case OFC_E_ACTION: return "that action id is not legal here";
    case OFC_E_FULL_SET: return "a Fantasyland or classic set has no action ids";
    case OFC_E_NOT_CLASSIC:
        return "only a classic hand may declare a natural or surrender";
    case OFC_E_SEATS: return "players, button or a Fantasyland count out of range";
    case OFC_E_DECK: return "the deal needs more cards than the deck holds";
    case OFC_E_DESTINATION:
        return "a destination outside front, middle, back, discard";
    case OFC_E_NOT_OVER: return "the deal is not over: no result yet";
    case OFC_E_STATE:
        return "a game state the engine could not have made (damaged or from elsewhere)";
    case OFC_E_NO_DECISION:
        return TEXT(OFC_VE_MAX_SKIPPED_DEALS) " deals in a row without an agent decision: "
               "the rules keep the agent seats in Fantasyland";
    default: return NULL;
    }
}

/* Codes of ofc_model.h. */
static const char *model_status(int32_t status)
{
    switch (status) {
    case OFC_E_MODEL_MAGIC: return "not a value model file (bad magic)";
    case OFC_E_MODEL_VERSION: return "a value model format version this library does not read";
    case OFC_E_MODEL_TRUNCATED: return "the value model file is truncated (or too long)";
    case OFC_E_MODEL_CHECKSUM:
        return "the value model file is corrupt (header checksum or payload checksum mismatch)";
    case OFC_E_MODEL_SHAPE: return "the value model's layers, sizes or opponent rows are out of range";
    case OFC_E_MODEL_VALUE:
        return "the value model holds a NaN or infinite weight, or one over "
               TEXT(OFC_VM_MAX_WEIGHT) " in magnitude";
    case OFC_E_MODEL_NO_NET: return "the value model has no net for this many cards";
    default: return NULL;
    }
}

const char *ofc_status_string(int32_t status)
{
    const char *text = core_status(status);
    if (text == NULL) {
        text = settle_status(status);
    }
    if (text == NULL) {
        text = game_status(status);
    }
    if (text == NULL) {
        text = model_status(status);
    }
    return text != NULL ? text : "unknown status code";
}
