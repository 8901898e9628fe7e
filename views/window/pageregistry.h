// The window's pages, in the rail's order (Ctrl+1 is the first): one line each. Adding a page is
// a folder under views/pages/ with a QWidget that implements Page (page.h), and one line here.
#pragma once

#include "page.h"

#include <QList>

namespace PageRegistry {

const QList<PageEntry> &pages();
// The entry's page from `context`, in a scroll area (named KEYPage) when it scrolls; none: not
// on this database.
QWidget *make(const PageEntry &entry, const PageContext &context);
// The Page of a widget make() gave (the page, or the scroll area around it); none: not a page.
Page *pageOf(QWidget *made);
// The key of a page by --tab's name, the old tab names included (detail = events, charts and
// history = overview); empty: no such page.
QString keyForName(const QString &name);

} // namespace PageRegistry
