#include "plainmessage.h"

#include "plaintext.h"

namespace {

QMessageBox::StandardButton show(
    QMessageBox::Icon icon, QWidget *parent, const QString &title, const QString &text)
{
    QStringList lines = text.split(QLatin1Char('\n'));
    for (QString &line : lines)
        line = PlainText::escaped(line);
    QMessageBox box(icon, title, lines.join(QLatin1Char('\n')), QMessageBox::Ok, parent);
    box.setTextFormat(Qt::PlainText);
    return QMessageBox::StandardButton(box.exec());
}

} // namespace

namespace PlainMessage {

QMessageBox::StandardButton information(QWidget *parent, const QString &title, const QString &text)
{
    return show(QMessageBox::Information, parent, title, text);
}

QMessageBox::StandardButton warning(QWidget *parent, const QString &title, const QString &text)
{
    return show(QMessageBox::Warning, parent, title, text);
}

} // namespace PlainMessage
