#include "ui/shell/appidentity.h"

#include <QApplication>

namespace gantry::ui {

QIcon appIcon()
{
    QIcon bundled;
    for (const int size : {16, 24, 32, 48, 64, 128, 256}) {
        bundled.addFile(QStringLiteral(":/gantry/icons/hicolor/%1x%1/apps/" GANTRY_APP_ID ".png").arg(size),
                        QSize(size, size));
    }
    return QIcon::fromTheme(QStringLiteral(GANTRY_APP_ID), bundled);
}

void applyAppIdentity()
{
    QGuiApplication::setDesktopFileName(QStringLiteral(GANTRY_APP_ID));
    QApplication::setWindowIcon(appIcon());
}

} // namespace gantry::ui
