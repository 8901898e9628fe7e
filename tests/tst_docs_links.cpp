// The documentation holds together: every relative link and image in README.md and
// docs/**/*.md names a file that exists (and, with #anchor, a heading of that file, as GitHub
// makes anchors of headings), and README.md stays short (under 320 lines) with the rest in docs/.
#include "testmain.h"
#include "testdata.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSet>

namespace {

const QString Source = TestData::sourceDir();

QString readText(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly | QIODevice::Text))
        return {};
    return QString::fromUtf8(file.readAll());
}

// The Markdown outside fenced code blocks, lines kept apart: text in ``` fences is code, not
// links or headings.
QStringList proseLines(const QString &text)
{
    QStringList prose;
    bool fenced = false;
    for (const QString &line : text.split(QLatin1Char('\n'))) {
        if (line.trimmed().startsWith(QLatin1String("```"))) {
            fenced = !fenced;
            continue;
        }
        if (!fenced)
            prose << line;
    }
    return prose;
}

// A line without its `inline code` spans, whose brackets are no links.
QString withoutCodeSpans(const QString &line)
{
    static const QRegularExpression span(QStringLiteral("`[^`]*`"));
    return QString(line).remove(span);
}

// GitHub's anchor of a heading: lower case, spaces to '-', anything but letters, digits, '-' and
// '_' dropped; a repeated heading gets -1, -2, ...
QSet<QString> anchorsOf(const QString &path)
{
    QSet<QString> anchors;
    static const QRegularExpression heading(QStringLiteral("^#{1,6}\\s+(.*)$"));
    for (const QString &line : proseLines(readText(path))) {
        const QRegularExpressionMatch match = heading.match(line);
        if (!match.hasMatch())
            continue;
        QString anchor;
        for (const QChar c : match.captured(1).trimmed().toLower()) {
            if (c.isLetterOrNumber() || c == QLatin1Char('-') || c == QLatin1Char('_'))
                anchor += c;
            else if (c == QLatin1Char(' '))
                anchor += QLatin1Char('-');
        }
        QString unique = anchor;
        for (int n = 1; anchors.contains(unique); ++n)
            unique = anchor + QLatin1Char('-') + QString::number(n);
        anchors.insert(unique);
    }
    return anchors;
}

// The targets of [text](target) and ![alt](target) in prose, titles ("...") left out.
QStringList linkTargets(const QString &path)
{
    static const QRegularExpression link(QStringLiteral("\\]\\(([^)\\s]+)(?:\\s+\"[^\"]*\")?\\)"));
    QStringList targets;
    for (const QString &line : proseLines(readText(path))) {
        auto matches = link.globalMatch(withoutCodeSpans(line));
        while (matches.hasNext())
            targets << matches.next().captured(1);
    }
    return targets;
}

bool isExternal(const QString &target)
{
    static const QRegularExpression scheme(QStringLiteral("^[a-z][a-z0-9+.-]*:"));
    return scheme.match(target).hasMatch();
}

// Empty when `target`, linked from `file`, names an existing file (and heading); otherwise why
// not.
QString brokenReason(const QString &file, const QString &target)
{
    const qsizetype hash = target.indexOf(QLatin1Char('#'));
    const QString pathPart = hash < 0 ? target : target.left(hash);
    const QString anchor = hash < 0 ? QString() : target.mid(hash + 1);
    const QString resolved = pathPart.isEmpty()
        ? file
        : QDir::cleanPath(QFileInfo(file).absolutePath() + QLatin1Char('/') + pathPart);
    if (!QFileInfo::exists(resolved))
        return QStringLiteral("no such file: %1").arg(resolved);
    if (!resolved.startsWith(Source + QLatin1Char('/')))
        return QStringLiteral("outside the repository: %1").arg(resolved);
    if (anchor.isEmpty() || !resolved.endsWith(QLatin1String(".md")))
        return {};
    if (!anchorsOf(resolved).contains(anchor))
        return QStringLiteral("no heading for #%1 in %2").arg(anchor, resolved);
    return {};
}

QStringList documentationFiles()
{
    QStringList files = {Source + QStringLiteral("/README.md")};
    QDirIterator it(Source + QStringLiteral("/docs"), {QStringLiteral("*.md")}, QDir::Files,
        QDirIterator::Subdirectories);
    while (it.hasNext())
        files << it.next();
    files.sort();
    return files;
}

} // namespace

class TestDocsLinks : public QObject
{
    Q_OBJECT

private slots:
    void everyRelativeLinkNamesAFile_data()
    {
        QTest::addColumn<QString>("file");
        for (const QString &file : documentationFiles())
            QTest::addRow("%s", qPrintable(QDir(Source).relativeFilePath(file))) << file;
    }
    void everyRelativeLinkNamesAFile()
    {
        QFETCH(QString, file);
        const QStringList targets = linkTargets(file);
        QStringList broken;
        for (const QString &target : targets) {
            if (isExternal(target))
                continue;
            const QString reason = brokenReason(file, target);
            if (!reason.isEmpty())
                broken << target + QStringLiteral(" (") + reason + QLatin1Char(')');
        }
        QVERIFY2(broken.isEmpty(), qPrintable(broken.join(QLatin1Char('\n'))));
    }

    // The checker itself finds what it should: a link in a known file, and none in code.
    void linksAreFoundOutsideCodeOnly()
    {
        const QStringList targets = linkTargets(Source + QStringLiteral("/README.md"));
        QVERIFY(targets.contains(QStringLiteral("docs/screenshots/demo.png")));
        QVERIFY(targets.contains(QStringLiteral("docs/outboxctl.md")));
        QCOMPARE(withoutCodeSpans(QStringLiteral("see `[a](b)` and [c](d)")),
            QStringLiteral("see  and [c](d)"));
        QVERIFY(!brokenReason(Source + QStringLiteral("/README.md"), QStringLiteral("docs/nope.md"))
                     .isEmpty());
        QVERIFY(!brokenReason(Source + QStringLiteral("/README.md"),
            QStringLiteral("docs/outboxctl.md#no-such-heading"))
                     .isEmpty());
        QVERIFY(brokenReason(Source + QStringLiteral("/README.md"),
            QStringLiteral("docs/outboxctl.md#outboxctl-check"))
                    .isEmpty());
    }

    void readmeStaysShort()
    {
        const QString readme = readText(Source + QStringLiteral("/README.md"));
        QVERIFY(!readme.isEmpty());
        const qsizetype lines = readme.count(QLatin1Char('\n'));
        QVERIFY2(lines < 320,
            qPrintable(QStringLiteral("README.md has %1 lines: move detail into docs/").arg(lines)));
    }
};

OUTBOX_TEST_MAIN(TestDocsLinks, QCoreApplication)
#include "tst_docs_links.moc"
