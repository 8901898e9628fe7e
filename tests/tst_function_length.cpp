// No function in app/, models/ or views/ runs over 80 lines (from the first line of its signature
// to its closing brace, lambdas counted in the function that holds them): a longer one
// is split into named steps. The check reads the sources with a small scanner (comments, string
// and character literals and preprocessor lines blanked, lines kept) that knows enough C++ to
// tell a function's body from a namespace, a class or a brace initialiser; it is tried on
// hand-written snippets first, so that a scanner which finds nothing cannot pass.
#include "testdata.h"
#include "testmain.h"

#include <QDirIterator>
#include <QFile>
#include <QRegularExpression>

namespace {

constexpr int MaxLines = 80;

struct Function
{
    QString head; // the text before its opening brace, spaces collapsed
    int firstLine = 0; // of its signature, 1-based
    int lines = 0; // the signature's first line to the closing brace, both counted
};

// The source with comments, literals and preprocessor lines turned into spaces, newlines kept.
QString blanked(const QString &source)
{
    QString out = source;
    const qsizetype n = source.size();
    auto blank = [&](qsizetype from, qsizetype to) {
        for (qsizetype i = from; i < to && i < n; ++i)
            if (out[i] != QLatin1Char('\n'))
                out[i] = QLatin1Char(' ');
    };
    bool lineStart = true;
    for (qsizetype i = 0; i < n;) {
        const QChar c = source[i];
        const QChar next = i + 1 < n ? source[i + 1] : QChar();
        if (lineStart && c == QLatin1Char('#')) { // a directive, with its continued lines
            qsizetype end = i;
            while (end < n
                && (source[end] != QLatin1Char('\n') || source[end - 1] == QLatin1Char('\\')))
                ++end;
            blank(i, end);
            i = end;
            continue;
        }
        if (c == QLatin1Char('\n'))
            lineStart = true;
        else if (!c.isSpace())
            lineStart = false;
        if (c == QLatin1Char('/') && next == QLatin1Char('/')) {
            const qsizetype end = source.indexOf(QLatin1Char('\n'), i);
            blank(i, end < 0 ? n : end);
            i = end < 0 ? n : end;
        } else if (c == QLatin1Char('/') && next == QLatin1Char('*')) {
            const qsizetype end = source.indexOf(QLatin1String("*/"), i + 2);
            blank(i, end < 0 ? n : end + 2);
            i = end < 0 ? n : end + 2;
        } else if (c == QLatin1Char('R') && next == QLatin1Char('"')
            && (i == 0 || !(source[i - 1].isLetterOrNumber() || source[i - 1] == QLatin1Char('_'))
                || source[i - 1] == QLatin1Char('u') || source[i - 1] == QLatin1Char('8')
                || source[i - 1] == QLatin1Char('L') || source[i - 1] == QLatin1Char('U'))) {
            const qsizetype open = source.indexOf(QLatin1Char('('), i + 2);
            const QString close
                = QLatin1Char(')') + source.mid(i + 2, open - i - 2) + QLatin1Char('"');
            const qsizetype end = source.indexOf(close, open);
            const qsizetype stop = end < 0 ? n : end + close.size();
            blank(i + 1, stop);
            i = stop;
        } else if (c == QLatin1Char('"')
            || (c == QLatin1Char('\'') && !(i > 0 && source[i - 1].isDigit()))) {
            qsizetype end = i + 1;
            while (end < n && source[end] != c && source[end] != QLatin1Char('\n'))
                end += source[end] == QLatin1Char('\\') ? 2 : 1;
            blank(i + 1, end);
            i = end + 1;
        } else {
            ++i;
        }
    }
    return out;
}

enum class Scope { Namespace, Class, Function, Other };

// What the brace after `head` opens, where `head` is the text since the last ';', '{' or '}' of
// an enclosing namespace or class (an initialiser's braces left as "{}").
Scope scopeOf(const QString &head)
{
    static const QRegularExpression keyword(QStringLiteral(
        "^(template\\s*<.*>\\s*)?(namespace|extern\\s*\"?|(class|struct|union)\\b)"));
    static const QRegularExpression enumHead(QStringLiteral("^(typedef\\s+)?enum\\b"));
    // `) const`, `) override`, `) noexcept`, `) -> T`, `) : m_a(a), m_b{}` and the like.
    static const QRegularExpression function(QStringLiteral(
        "\\)\\s*((const|override|final|noexcept|mutable|volatile|&&?|->\\s*[\\w:<>,*& ]+)\\s*)*$"
        "|\\)\\s*(const\\s*)?(noexcept\\s*)?:(?!:).*[)}]$"));
    const QString text = head.trimmed();
    if (enumHead.match(text).hasMatch())
        return Scope::Other;
    if (const auto match = keyword.match(text); match.hasMatch())
        return match.captured(2).startsWith(QLatin1String("namespace"))
                || match.captured(2).startsWith(QLatin1String("extern"))
            ? Scope::Namespace
            : (text.contains(QLatin1Char('(')) && function.match(text).hasMatch() ? Scope::Function
                                                                                  : Scope::Class);
    return function.match(text).hasMatch() ? Scope::Function : Scope::Other;
}

QList<Function> functionsIn(const QString &source)
{
    static const QRegularExpression accessLabel(
        QStringLiteral("^(Q_OBJECT|Q_GADGET)?\\s*(public|protected|private)?\\s*(slots|signals|Q_"
                       "SLOTS|Q_SIGNALS)?$"));
    const QString text = blanked(source);
    QList<Function> found;
    QList<Scope> scopes;
    QString head;
    int headLine = 1; // where the head's first character is
    int line = 1;
    int functionDepth = -1; // the depth of the outermost function's brace, -1 outside
    for (const QChar c : text) {
        if (c == QLatin1Char('\n'))
            ++line;
        if (functionDepth >= 0 && c != QLatin1Char('{') && c != QLatin1Char('}'))
            continue;
        if (c == QLatin1Char('{')) {
            const Scope scope = functionDepth >= 0 ? Scope::Other : scopeOf(head);
            if (scope == Scope::Function && functionDepth < 0) {
                functionDepth = int(scopes.size());
                found.append({head.simplified(), headLine, 0});
            }
            scopes.append(scope);
            if (scope != Scope::Other)
                head.clear();
            else if (functionDepth < 0)
                head += QLatin1Char('{');
        } else if (c == QLatin1Char('}')) {
            if (scopes.isEmpty())
                continue; // unbalanced: the compiler says more
            const Scope scope = scopes.takeLast();
            if (int(scopes.size()) == functionDepth) {
                found.last().lines = line - found.last().firstLine + 1;
                functionDepth = -1;
                head.clear();
            } else if (functionDepth < 0) {
                if (scope == Scope::Other)
                    head += QLatin1Char('}');
                else
                    head.clear();
            }
        } else if (c == QLatin1Char(';')) {
            if (scopes.isEmpty() || scopes.last() != Scope::Other)
                head.clear();
            else
                head += c;
        } else if (c == QLatin1Char(':') && accessLabel.match(head.trimmed()).hasMatch()) {
            head.clear(); // `public:`, `private slots:`: a label, not a signature's start
        } else {
            if (head.trimmed().isEmpty() && !c.isSpace())
                headLine = line;
            head += c;
        }
    }
    return found;
}

QString readText(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly | QIODevice::Text))
        return {};
    return QString::fromUtf8(file.readAll());
}

// A function of `lines` lines, signature and braces counted.
QString functionOf(int lines)
{
    return u"int f(int a)\n{\n"_qs + u"    a += 1;\n"_qs.repeated(lines - 3) + u"}\n"_qs;
}

} // namespace

class TestFunctionLength : public QObject
{
    Q_OBJECT

private slots:
    void scanner_data();
    void scanner();
    void everyFunctionFits();
};

void TestFunctionLength::scanner_data()
{
    QTest::addColumn<QString>("source");
    QTest::addColumn<QList<int>>("lengths");
    QTest::newRow("a free function") << functionOf(5) << QList<int> {5};
    QTest::newRow("one over the limit") << functionOf(MaxLines + 1) << QList<int> {MaxLines + 1};
    QTest::newRow("in a namespace and a class")
        << u"namespace a {\nclass B {\n    Q_OBJECT\npublic:\n    int f() const { return 1; }\n"
           u"private slots:\n    void g()\n    {\n    }\n};\n}\n"_qs
        << QList<int> {1, 3};
    QTest::newRow("a constructor's initialiser list with braces")
        << u"A::A(int x)\n    : m_a{x}\n    , m_b(x)\n{\n    run();\n}\n"_qs << QList<int> {6};
    QTest::newRow("braces in strings, comments and directives")
        << u"// {\n#define X {\nvoid f()\n{\n    g(\"}\", '{', R\"(})\");\n    /* } */\n}\n"_qs
        << QList<int> {5};
    QTest::newRow("enums, initialisers and lambdas are no functions of their own")
        << u"enum class E { A, B };\nconst int t[] = {1, 2};\nvoid f()\n{\n    auto l = [] {\n"
           u"        return 1;\n    };\n}\n"_qs
        << QList<int> {6};
    QTest::newRow("a trailing return type and an override")
        << u"auto f() -> int\n{\n    return 1;\n}\nvoid B::g() override\n{\n}\n"_qs
        << QList<int> {4, 3};
}

void TestFunctionLength::scanner()
{
    QFETCH(QString, source);
    QFETCH(QList<int>, lengths);
    QList<int> measured;
    for (const Function &function : functionsIn(source))
        measured << function.lines;
    QCOMPARE(measured, lengths);
}

void TestFunctionLength::everyFunctionFits()
{
    const QString root = TestData::sourceDir();
    QStringList tooLong;
    int functions = 0;
    for (const char *folder : {"app", "models", "views"}) {
        QDirIterator it(root + QLatin1Char('/') + QLatin1String(folder), {u"*.cpp"_qs, u"*.h"_qs},
            QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString path = it.next();
            for (const Function &function : functionsIn(readText(path))) {
                ++functions;
                if (function.lines > MaxLines)
                    tooLong << u"%1:%2: %3 lines: %4"_qs.arg(path.mid(root.size() + 1))
                                   .arg(function.firstLine)
                                   .arg(function.lines)
                                   .arg(function.head.left(100));
            }
        }
    }
    QVERIFY2(functions > 1000, qPrintable(u"only %1 functions found"_qs.arg(functions)));
    QVERIFY2(tooLong.isEmpty(),
        qPrintable(u"functions over %1 lines (split them into named steps):\n"_qs.arg(MaxLines)
            + tooLong.join(QLatin1Char('\n'))));
}

OUTBOX_TEST_MAIN(TestFunctionLength, QCoreApplication)
#include "tst_function_length.moc"
