#include "plainmessage.h"

#include "plaintext.h"

#include <QTextDocument>

namespace {

QMessageBox::StandardButton show(
    QMessageBox::Icon icon, QWidget *parent, const QString &title, const QString &text)
{
    QMessageBox box(icon, title, text, QMessageBox::Ok, parent);
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

QString toolTip(const QString &text)
{
    const QString plain = PlainText::escaped(text);
    if (!Qt::mightBeRichText(plain))
        return plain;
    return u"<qt>"_qs + plain.toHtmlEscaped() + u"</qt>"_qs;
}

} // namespace PlainMessage
