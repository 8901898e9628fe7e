// A link to a view of the dashboard, `outbox-health:open?db=URL&state=dead&event=EV-1`: what the
// desktop passes to outbox-dashboard for the outbox-health: URL scheme, what View › Copy link to
// this view copies and what the shipped alert rules' annotations carry. Its keys are
// outbox-dashboard's long option names (event= is --select); only options that choose a view
// are keys, none that writes a file. A link comes from anywhere (a chat, a web page), so what is
// not exactly a link is refused with one line that never repeats a password: a password in it,
// an unknown or repeated key, an empty value, another verb or scheme, more than MaxLength
// characters.
#pragma once

#include <QString>
#include <QStringList>
#include <optional>

struct ViewLink
{
    static constexpr qsizetype MaxLength = 8 * 1024;

    QString db; // a database URL without a password; empty: --demo, or the last database
    bool demo = false;
    QString profile;
    bool readOnly = false;
    QString search;
    QString searchMode;
    QString state;
    QString sort;
    QString tab; // the page shown
    QString event; // selected on the Events page, its detail showing
    QString cdcSlot; // the replication slot of a CDC outbox (--cdc-slot): its tile row

    // `outbox-health:open?KEY=VALUE&…`: keys as the long options (and `select` for event), values
    // percent-encoded (a + is a space, as in a form or Go's urlquery), booleans true or false.
    // The values are checked further where the options are (EventView, DatabaseUrl).
    static std::optional<ViewLink> fromUrl(const QString &text, QString *error);
    // The link, keys in a fixed order; ':', '/' and '@' are kept readable.
    QString toUrl() const;
    // The same view as outbox-dashboard's options: {"--db", URL, "--state", "dead", …}.
    QStringList toArguments() const;

    bool operator==(const ViewLink &other) const = default;
};
