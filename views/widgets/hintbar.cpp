#include "hintbar.h"

#include "themecolours.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QToolButton>

namespace {

const char DismissedKey[] = "hints/demoDismissed";

} // namespace

HintBar::HintBar(QWidget *parent)
    : QFrame(parent)
    , m_text(new QLabel)
{
    setObjectName(QStringLiteral("hintBar"));
    setStyleSheet(ThemeColours::bannerStyleSheet(objectName(), ThemeColours::TileLevel::Normal));
    m_text->setObjectName(QStringLiteral("hintBarText"));
    m_text->setWordWrap(true);
    m_text->setText(tr("DEAD events are red: select one to see why it was parked (its attempts "
                       "and last error), then Replay… sends it again with the same event ID."));
    auto *showMe = new QPushButton(tr("Show me"));
    showMe->setObjectName(QStringLiteral("hintBarShowMe"));
    showMe->setToolTip(tr("Select the first DEAD event in the table"));
    connect(showMe, &QPushButton::clicked, this, &HintBar::showMeRequested);
    auto *close = new QToolButton;
    close->setObjectName(QStringLiteral("hintBarClose"));
    close->setText(QStringLiteral("✕"));
    close->setAutoRaise(true);
    close->setToolTip(tr("Dismiss this hint for good"));
    close->setAccessibleName(tr("Dismiss this hint")); // not "multiplication sign"
    connect(close, &QToolButton::clicked, this, &HintBar::dismiss);
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(10, 4, 4, 4);
    layout->addWidget(m_text, 1);
    layout->addWidget(showMe);
    layout->addWidget(close);
}

bool HintBar::isDismissed()
{
    return QSettings().value(QLatin1String(DismissedKey), false).toBool();
}

QString HintBar::text() const
{
    return m_text->text();
}

void HintBar::dismiss()
{
    QSettings().setValue(QLatin1String(DismissedKey), true);
    hide();
}
