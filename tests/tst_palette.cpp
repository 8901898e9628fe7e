// Colours follow the palette, and a connection can say which environment it belongs to. Under
// a dark palette the text of tiles (every level), DEAD rows and status words stays readable
// (WCAG contrast of at least 4.5:1 against what it is drawn on); an environment named in the
// Connect dialog shows in the window title, the status bar and a badge by the tiles, and is
// remembered with the URL but never with its password.
#include "connectdialog.h"
#include "connectionenvironment.h"
#include "eventlistmodel.h"
#include "healthsnapshot.h"
#include "healthtiles.h"
#include "mainwindow.h"
#include "statuscolorproxy.h"
#include "testdatabase.h"
#include "testmain.h"
#include "themecolours.h"

#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QSettings>
#include <QStandardItemModel>
#include <QTemporaryDir>
#include <QWindow>

namespace {

constexpr double ReadableContrast = 4.5; // WCAG AA for normal text

QString describe(const QColor &text, const QColor &background)
{
    return QStringLiteral("%1 on %2: %3")
        .arg(text.name(), background.name())
        .arg(ThemeColours::contrastRatio(text, background));
}

} // namespace

class TestPalette : public QObject
{
    Q_OBJECT

private slots:
    void init()
    {
        m_settings = std::make_unique<QTemporaryDir>();
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_settings->path());
    }
    void cleanup() { QApplication::setPalette(m_light); }

    void contrastRatioIsWcags()
    {
        QCOMPARE(qRound(ThemeColours::contrastRatio(Qt::black, Qt::white)), 21);
        QCOMPARE(ThemeColours::contrastRatio(Qt::gray, Qt::gray), 1.0);
    }

    void textIsReadable_data()
    {
        QTest::addColumn<bool>("dark");
        QTest::addRow("light palette") << false;
        QTest::addRow("dark palette") << true;
    }
    void textIsReadable()
    {
        QFETCH(bool, dark);
        if (dark)
            QApplication::setPalette(ThemeColours::darkPalette());
        QCOMPARE(ThemeColours::isDark(), dark);

        // Tiles at every level, and stale: the value and hint against the tile's background.
        HealthTiles tiles;
        TileThresholds thresholds;
        thresholds.dead = {1, 3};
        thresholds.due = {1, 100};
        tiles.setThresholds(thresholds);
        HealthSnapshot snapshot;
        snapshot.counts.dead = 5; // red
        snapshot.counts.due = 2; // amber
        tiles.setSnapshot(snapshot);
        QCOMPARE(tiles.level(HealthTiles::Tile::Dead), HealthTiles::Level::Red);
        QCOMPARE(tiles.level(HealthTiles::Tile::Due), HealthTiles::Level::Amber);
        const auto checkTiles = [&tiles] {
            for (const auto tile :
                {HealthTiles::Tile::Dead, HealthTiles::Tile::Due, HealthTiles::Tile::Delivered}) {
                const ThemeColours::Tile colours = tiles.colours(tile);
                for (const QColor &text : {colours.text, colours.hint}) {
                    QVERIFY2(
                        ThemeColours::contrastRatio(text, colours.background) >= ReadableContrast,
                        qPrintable(describe(text, colours.background)));
                }
            }
        };
        checkTiles();
        tiles.setStale(true);
        checkTiles();
        if (dark) // the tiles really are dark, not the light ones on a dark window
            QVERIFY(tiles.colours(HealthTiles::Tile::Delivered).background.lightnessF() < 0.3);

        // A DEAD row of the event table, as the proxy colours it.
        QStandardItemModel source(1, 1);
        source.setData(source.index(0, 0), u"P-1"_qs);
        StatusColorProxy proxy;
        proxy.setSourceModel(&source);
        proxy.setStatusFunction([](const QModelIndex &) { return u"DEAD"_qs; });
        const QColor rowText = proxy.index(0, 0).data(Qt::ForegroundRole).value<QBrush>().color();
        const QColor rowBack = proxy.index(0, 0).data(Qt::BackgroundRole).value<QBrush>().color();
        QVERIFY2(ThemeColours::contrastRatio(rowText, rowBack) >= ReadableContrast,
            qPrintable(describe(rowText, rowBack)));

        // Status words (outcome cells, timeline, charts) on the table's base colour.
        const QColor base = QApplication::palette().color(QPalette::Base);
        for (const QString &word : {u"DELIVERED"_qs, u"DEAD"_qs, u"RETRY"_qs, u"LEASE_EXPIRED"_qs,
                 u"in flight"_qs, u"DUE"_qs, u"SCHEDULED"_qs}) {
            const QColor colour = StatusColorProxy::colorFor(word);
            QVERIFY2(ThemeColours::contrastRatio(colour, base) >= ReadableContrast,
                qPrintable(word + u": "_qs + describe(colour, base)));
        }
        for (const QColor &text : {ThemeColours::warningText(), ThemeColours::errorText()}) {
            QVERIFY2(
                ThemeColours::contrastRatio(text, QApplication::palette().color(QPalette::Window))
                    >= ReadableContrast,
                qPrintable(describe(text, QApplication::palette().color(QPalette::Window))));
        }
    }

    void environmentIsShownAndKeptWithoutThePassword()
    {
        const QString url = u"postgresql://alice:s3cr3t-pw@db.example:5432/shop"_qs;
        {
            ConnectDialog dialog;
            dialog.findChild<QComboBox *>()->setEditText(url);
            auto *name = dialog.findChild<QComboBox *>(u"environmentName"_qs);
            QVERIFY(name);
            name->setEditText(u"PRODUCTION"_qs);
            auto *colour = dialog.findChild<QComboBox *>(u"environmentColour"_qs);
            colour->setCurrentIndex(0); // red
            QCOMPARE(dialog.environment().name, u"PRODUCTION"_qs);
            ConnectDialog::remember(dialog.url(), dialog.environment());
        }
        // Kept with the recent connection, keyed without the password; never the password.
        QSettings settings;
        for (const QString &key : settings.allKeys()) {
            QVERIFY(!key.contains(u"s3cr3t"_qs));
            QVERIFY2(!settings.value(key).toString().contains(u"s3cr3t"_qs), qPrintable(key));
            for (const QVariant &value : settings.value(key).toMap())
                QVERIFY2(!value.toString().contains(u"s3cr3t"_qs), qPrintable(key));
            for (const QString &mapKey : settings.value(key).toMap().keys())
                QVERIFY2(!mapKey.contains(u"s3cr3t"_qs), qPrintable(key));
            for (const QString &item : settings.value(key).toStringList())
                QVERIFY2(!item.contains(u"s3cr3t"_qs), qPrintable(key));
        }
        settings.sync();
        QFile file(settings.fileName());
        if (file.open(QIODevice::ReadOnly))
            QVERIFY(!file.readAll().contains("s3cr3t"));
        const ConnectionEnvironment remembered
            = ConnectionEnvironment::forUrl(u"postgresql://alice@db.example:5432/shop"_qs);
        QCOMPARE(remembered.name, u"PRODUCTION"_qs);
        QCOMPARE(remembered.colour, ConnectionEnvironment::colours().first().second);
        {
            ConnectDialog again; // picking the recent URL brings its environment back
            again.findChild<QComboBox *>()->setEditText(
                u"postgresql://alice@db.example:5432/shop"_qs);
            QCOMPARE(again.environment(), remembered);
        }

        FRESH_DATABASE(database, QStringLiteral("sqlite"));
        QVERIFY(database->initialise());
        WindowOptions options;
        options.environment = remembered;
        MainWindow window(database->connect(), options);
        window.show();
        QVERIFY2(
            window.windowTitle().startsWith(u"[PRODUCTION] "_qs), qPrintable(window.windowTitle()));
        auto *label = window.findChild<QLabel *>(u"environmentLabel"_qs);
        QVERIFY(label && label->isVisible());
        QCOMPARE(label->text(), u"PRODUCTION"_qs);
        QVERIFY(
            window.tiles()->environmentBadge() && window.tiles()->environmentBadge()->isVisible());
        QCOMPARE(window.tiles()->environmentBadge()->text(), u"PRODUCTION"_qs);

        MainWindow plain(database->connect(), {});
        QVERIFY(!plain.windowTitle().contains(u"["_qs));
        QVERIFY(!plain.findChild<QLabel *>(u"environmentLabel"_qs));
    }

    void themeOptionRefusesUnknownNames()
    {
        QString error;
        QVERIFY(!ThemeColours::applyTheme(u"solarized"_qs, &error));
        QVERIFY(error.contains(u"light, dark or system"_qs));
        QVERIFY(ThemeColours::applyTheme(u"dark"_qs, &error));
        QVERIFY(ThemeColours::isDark());
        QVERIFY(ThemeColours::applyTheme(u"light"_qs, &error));
        QVERIFY(!ThemeColours::isDark());
    }

private:
    std::unique_ptr<QTemporaryDir> m_settings;
    QPalette m_light = QApplication::palette();
};

OUTBOX_TEST_MAIN(TestPalette, QApplication)
#include "tst_palette.moc"
