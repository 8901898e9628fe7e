#include "startwindow.h"

#include <QApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenuBar>
#include <QPushButton>
#include <QVBoxLayout>

StartWindow::StartWindow(QWidget *parent)
    : QMainWindow(parent)
    , m_title(new QLabel)
    , m_message(new QLabel)
    , m_connect(new QPushButton(tr("Connect…")))
    , m_demo(new QPushButton(tr("Open the demo")))
{
    setObjectName(QStringLiteral("startWindow"));
    setWindowTitle(tr("Outbox Health"));
    m_title->setObjectName(QStringLiteral("startTitle"));
    QFont big = m_title->font();
    big.setPointSizeF(big.pointSizeF() * 1.4);
    big.setBold(true);
    m_title->setFont(big);
    m_message->setObjectName(QStringLiteral("startMessage"));
    m_message->setTextFormat(Qt::PlainText); // a server's message is shown as it is
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_connect->setObjectName(QStringLiteral("startConnectButton"));
    m_demo->setObjectName(QStringLiteral("startDemoButton"));

    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_connect);
    buttons->addWidget(m_demo);
    buttons->addStretch();
    auto *central = new QWidget;
    auto *layout = new QVBoxLayout(central);
    layout->setContentsMargins(24, 24, 24, 24);
    layout->addWidget(m_title);
    layout->addWidget(m_message);
    layout->addLayout(buttons);
    layout->addStretch();
    setCentralWidget(central);

    QMenu *file = menuBar()->addMenu(tr("&File"));
    QAction *connectAction = file->addAction(tr("Connect…"), this, &StartWindow::connectRequested);
    connectAction->setShortcut(QKeySequence::Open);
    file->addAction(tr("Open the demo"), this, &StartWindow::demoRequested);
    file->addSeparator();
    QAction *quit = file->addAction(tr("&Quit"), qApp, &QApplication::closeAllWindows);
    quit->setShortcut(QKeySequence::Quit);

    connect(m_connect, &QPushButton::clicked, this, &StartWindow::connectRequested);
    connect(m_demo, &QPushButton::clicked, this, &StartWindow::demoRequested);
    resize(720, 320);
}

void StartWindow::setOpening(const QString &database)
{
    m_title->setText(tr("Opening %1…").arg(database));
    m_message->setText(tr("The window opens once the database answers (at most a few seconds)."));
}

void StartWindow::setFailed(const QString &database, const QString &cause)
{
    m_title->setText(tr("Could not open %1").arg(database));
    m_message->setText(cause);
    m_connect->setDefault(true);
    m_connect->setFocus();
}

QString StartWindow::message() const
{
    return m_title->text() + QLatin1Char('\n') + m_message->text();
}
