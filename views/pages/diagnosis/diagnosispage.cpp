#include "diagnosispage.h"

#include "findingcard.h"
#include "numbertext.h"
#include "themecolours.h"

#include <QDateTime>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

#include <algorithm>

DiagnosisPage::DiagnosisPage(QWidget *parent)
    : QWidget(parent)
    , m_state(new QLabel(tr("Waiting for the first diagnosis…")))
    , m_failure(new QLabel)
    , m_cards(new QVBoxLayout)
    , m_checked(new QLabel)
{
    setObjectName(u"diagnosisPanel"_qs);
    m_state->setObjectName(u"diagnosisState"_qs);
    m_state->setStyleSheet(u"font-weight: 600;"_qs);
    m_failure->setObjectName(u"diagnosisFailure"_qs);
    m_failure->setTextFormat(Qt::PlainText);
    m_failure->setWordWrap(true);
    m_failure->setStyleSheet(u"color: %1"_qs.arg(ThemeColours::warningText().name()));
    m_failure->hide();
    m_checked->setObjectName(u"diagnosisChecked"_qs);
    m_checked->setWordWrap(true);
    m_checked->setStyleSheet(u"font-size: 8pt; color: %1"_qs.arg(ThemeColours::neutral().name()));
    m_cards->setContentsMargins(0, 0, 0, 0);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_state);
    layout->addWidget(m_failure);
    layout->addLayout(m_cards);
    layout->addWidget(m_checked);
    layout->addStretch(1);
}

void DiagnosisPage::setResult(const DiagnosisResult &result)
{
    showCards(result.findings, result.now);
    m_hasResult = true;
    m_state->setText(result.findings.isEmpty()
            ? tr("No findings: healthy")
            : tr("%1, worst first")
                  .arg(NumberText::counted(result.findings.size(), tr("finding"), tr("findings"))));
    m_failure->hide();
    QString checked = tr("Checked %1 at %2 in %3 ms")
                          .arg(NumberText::counted(result.checked.size(), tr("rule"), tr("rules")),
                              QDateTime::currentDateTime().toString(u"HH:mm:ss"_qs))
                          .arg(result.queryMs);
    QStringList tip {tr("Checked: %1").arg(result.checked.join(u", "_qs))};
    if (!result.notChecked.isEmpty()) {
        checked += tr("; not checked: %1").arg(result.notChecked.join(u", "_qs));
        for (const QString &code : result.notChecked)
            tip << tr("Not checked: %1 (%2)").arg(code, result.notCheckedReasons.value(code));
    }
    m_checked->setText(checked);
    m_checked->setToolTip(tip.join(u'\n'));
}

void DiagnosisPage::setFailure(const QString &error)
{
    m_failure->setText(!m_hasResult
            ? tr("The diagnosis could not run: %1").arg(error)
            : tr("The newest diagnosis could not run (showing the last one): %1").arg(error));
    m_failure->show();
}

// Each finding keeps its card: a card is updated in place, moved when the order changes, made
// only for a new finding and deleted only when its finding is gone. Rebuilding them on every
// change (a count or a summary moves every few snapshots in the demo) made the memory grow.
void DiagnosisPage::showCards(const QList<Finding> &findings, qint64 now)
{
    QList<FindingCard *> old = m_cardList;
    m_cardList.clear();
    for (const Finding &finding : findings) {
        const auto same = std::find_if(old.begin(), old.end(),
            [&finding](const FindingCard *card) { return card->code() == finding.code; });
        FindingCard *card = nullptr;
        if (same != old.end()) {
            card = *same;
            old.erase(same);
        } else {
            card = new FindingCard(finding.code, this);
            connect(card, &FindingCard::filterRequested, this, &DiagnosisPage::filterRequested);
        }
        card->setFinding(finding, now);
        m_cardList << card;
    }
    qDeleteAll(old);
    for (int i = 0; i < m_cardList.size(); ++i) {
        if (m_cards->indexOf(m_cardList.at(i)) != i) {
            m_cards->removeWidget(m_cardList.at(i));
            m_cards->insertWidget(i, m_cardList.at(i));
        }
    }
}

QList<FindingCard *> DiagnosisPage::cards() const
{
    return m_cardList;
}

QStringList DiagnosisPage::findingCodes() const
{
    QStringList codes;
    for (const FindingCard *card : m_cardList)
        codes << card->code();
    return codes;
}

QString DiagnosisPage::stateText() const
{
    return m_state->text();
}

QString DiagnosisPage::checkedText() const
{
    return m_checked->text();
}

QString DiagnosisPage::failureText() const
{
    return m_failure->isHidden() ? QString() : m_failure->text();
}

QWidget *DiagnosisPage::focusTarget() const
{
    const QList<FindingCard *> shown = cards();
    if (!shown.isEmpty() && shown.first()->showButton()->isEnabled())
        return shown.first()->showButton();
    return const_cast<DiagnosisPage *>(this);
}
