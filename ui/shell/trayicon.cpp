#include "shell/trayicon.h"

#include <QApplication>
#include <QMenu>
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

void TrayIcon::showWindow()
{
    m_window->showNormal();
    m_window->raise();
    m_window->activateWindow();
}

} // namespace gantry::ui
