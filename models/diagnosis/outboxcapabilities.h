// What an outbox connection can do, decided once: which operator actions exist on it (the
// native schema has them all; through a profile, those its fields map) so that no surface
// advises, shows or enables an action the outbox refuses. explain, diagnose, the detail pane,
// the Diagnosis page and the dialogs ask here (Advice carries it).
#pragma once

#include <QString>

class OutboxProfile;

struct OutboxCapabilities
{
    bool replay = true; // Outbox Health's replay, or the profile's replay statement
    bool resetBudget = true; // --reset-budget and a spread window: Outbox Health's own replay
    bool resolve = true; // DEAD -> RESOLVED (through a profile: its `resolve` statement)
    bool reopen = true; // RESOLVED -> DEAD (through a profile: its `reopen` statement)
    QString replayInstead; // a read-only profile's "what to run instead" (replay false)

    // Whether the action named by its verb ("replay", "resolve", "reopen") exists here.
    bool offers(const QString &verb) const;
    // `profile` null or native: everything; another schema: the statements it maps (replay,
    // resolve, reopen).
    static OutboxCapabilities of(const OutboxProfile *profile);
};
