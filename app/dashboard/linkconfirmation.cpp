#include "linkconfirmation.h"

#include "connectdialog.h"
#include "databaseurl.h"
#include "windowsettings.h"

#include <QCoreApplication>
#include <QMessageBox>

namespace LinkConfirmation {

bool isKnownDatabase(const QString &urlText)
{
    QString error;
    const DatabaseUrl url = DatabaseUrl::parse(urlText, &error);
    if (!url.isValid())
        return false;
    const QString storable = url.toStorableString();
    if (ConnectDialog::recentConnections().contains(storable))
        return true;
    const std::optional<LastDatabase> last = WindowSettings::lastDatabase();
    return last && !last->demo && last->url == storable;
}

QString question(const QString &urlText)
{
    QString error;
    const DatabaseUrl url = DatabaseUrl::parse(urlText, &error);
    return QCoreApplication::translate("LinkConfirmation",
        "The link opens a database this computer has not opened before:\n\n%1\n\n"
        "Connecting sends your user name to that server (and the password in PGPASSWORD, if "
        "set). Open it?")
        .arg(url.isValid() ? url.toStorableString() : urlText); // never a password
}

bool confirm(const QString &urlText, QWidget *parent)
{
    if (isKnownDatabase(urlText))
        return true;
    QMessageBox box(QMessageBox::Question,
        QCoreApplication::translate("LinkConfirmation", "Open a link's database?"),
        question(urlText), QMessageBox::Open | QMessageBox::Cancel, parent);
    box.setObjectName(QStringLiteral("linkConfirmationBox"));
    box.setTextFormat(Qt::PlainText); // a link's text, never markup
    box.setDefaultButton(QMessageBox::Cancel);
    return box.exec() == QMessageBox::Open;
}

} // namespace LinkConfirmation
