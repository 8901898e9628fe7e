// English plural forms for tr("%n event(s)", nullptr, n). Qt keeps the "(s)" unless a
// translation supplies the forms, and the program ships no translation: this translator, installed
// once by the dashboard (and by tests that read such text), says "1 event" and "2 events". A
// source text with %n pluralises where it writes "(s)"; a word with another plural names both
// forms itself.
#pragma once

#include <QTranslator>

class EnglishPlurals : public QTranslator
{
public:
    using QTranslator::QTranslator;

    QString translate(const char *context, const char *sourceText,
        const char *disambiguation = nullptr, int n = -1) const override;
    bool isEmpty() const override { return false; }
};
