#include "windowframe.h"

#include "hintbar.h"
#include "mainwindow.h"

#include <QApplication>
#include <QFileInfo>
#include <QScreen>
#include <QVBoxLayout>

namespace WindowFrame {

QString title(const WindowOptions &options, const DatabaseUrl &url)
{
    const QString title = options.outboxName.isEmpty()
        ? MainWindow::tr("Outbox Health — %1").arg(url.toDisplayString())
        : MainWindow::tr("Outbox Health — %1 (%2)").arg(options.outboxName, url.toDisplayString());
    const ConnectionEnvironment &environment = options.environment;
    return environment.isEmpty() ? title : QStringLiteral("[%1] ").arg(environment.name) + title;
}

QString outboxName(const WindowOptions &options, const DatabaseUrl &url)
{
    if (!options.outboxName.isEmpty())
        return options.outboxName;
    return url.isFile() ? QFileInfo(url.path()).completeBaseName() : url.databaseName();
}

QSize defaultSize()
{
    QSize size(1600, 1000);
    if (const QScreen *screen = QApplication::primaryScreen())
        size = size.boundedTo(screen->availableGeometry().size() - QSize(16, 48)); // frame
    return size;
}

void addHintBar(MainWindow &window)
{
    if (!window.options().startLiveRelay || HintBar::isDismissed())
        return;
    auto *hint = new HintBar;
    QObject::connect(hint, &HintBar::showMeRequested, &window,
        [&window] { window.selectFirstEventWithStatus(QStringLiteral("DEAD")); });
    qobject_cast<QVBoxLayout *>(window.centralWidget()->layout())->insertWidget(0, hint);
}

} // namespace WindowFrame
