#include "ui/shell/trayicon.h"

#include <QApplication>
#include <QFontMetrics>
#include <QMenu>
#include <QPainter>
#include <QWidget>

namespace gantry::ui {

TrayIcon *TrayIcon::createIfAvailable(QWidget *window, QObject *parent)
{
    if (!QSystemTrayIcon::isSystemTrayAvailable())
        return nullptr;
    auto *tray = new TrayIcon(window, parent);
    tray->show();
    return tray;
}

TrayIcon::TrayIcon(QWidget *window, QObject *parent)
    : QSystemTrayIcon(QApplication::windowIcon(), parent)
    , m_window(window)
    , m_menu(std::make_unique<QMenu>())
{
    setToolTip(QApplication::applicationDisplayName());
    m_menu->addAction(tr("Show Gantry"), this, &TrayIcon::showWindow);
    m_menu->addSeparator();
    m_menu->addAction(tr("Quit"), this, [this] {
        showWindow();
        m_window->close();
    });
    setContextMenu(m_menu.get());
    connect(this, &QSystemTrayIcon::activated, this, [this](ActivationReason reason) {
        if (reason == Trigger || reason == DoubleClick)
            showWindow();
    });
}

TrayIcon::~TrayIcon() = default;

void TrayIcon::setRunningRate(const QString &amount)
{
    if (amount == m_rate)
        return;
    m_rate = amount;
    const QIcon base = QApplication::windowIcon();
    if (amount.isEmpty()) {
        setIcon(base);
        return;
    }
    // A strip at the bottom of a 64 px icon with the amount in it; the tray scales it down.
    QPixmap pixmap = base.pixmap(64, 64);
    if (pixmap.isNull()) {
        pixmap = QPixmap(64, 64);
        pixmap.fill(Qt::transparent);
    }
    QPainter painter(&pixmap);
    painter.setRenderHint(QPainter::Antialiasing);
    const QRect strip(0, 40, 64, 24);
    painter.fillRect(strip, QColor(0, 0, 0, 190));
    QFont font = painter.font();
    font.setBold(true);
    font.setPixelSize(18);
    QString text = amount;
    text.remove(QLatin1Char('$'));
    for (; font.pixelSize() > 9 && QFontMetrics(font).horizontalAdvance(text) > strip.width() - 2; font.setPixelSize(font.pixelSize() - 1)) {
    }
    painter.setFont(font);
    painter.setPen(Qt::white); // on the dark strip in any theme
    painter.drawText(strip, Qt::AlignCenter, text);
    painter.end();
    setIcon(QIcon(pixmap));
}

void TrayIcon::showWindow()
{
    m_window->showNormal();
    m_window->raise();
    m_window->activateWindow();
}

} // namespace gantry::ui
