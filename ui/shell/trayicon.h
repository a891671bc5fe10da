#pragma once

#include <QSystemTrayIcon>

#include <memory>

class QMenu;
class QWidget;

namespace gantry::ui {

// The tray icon: the app icon with Show and Quit, and the balloon for notifications. Quit closes
// the window the normal way, so its questions about pending transfers and jobs still come first.
class TrayIcon final : public QSystemTrayIcon
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TrayIcon)

public:
    // Null where the desktop has no system tray (then notifications use the status bar).
    static TrayIcon *createIfAvailable(QWidget *window, QObject *parent);
    ~TrayIcon() override;

    // The running $/h ("$1.29") drawn on the icon, so a glance at the panel shows what is billing;
    // empty restores the plain icon.
    void setRunningRate(const QString &amount);
    QString runningRate() const { return m_rate; }

private:
    TrayIcon(QWidget *window, QObject *parent);
    void showWindow();

    QWidget *m_window;
    QString m_rate;
    std::unique_ptr<QMenu> m_menu; // a tray does not own its context menu
};

} // namespace gantry::ui
