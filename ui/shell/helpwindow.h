// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QDialog>

class QTextBrowser;

namespace gantry::ui {

// The manual (resources/manual, compiled into this library, installed to share/doc/gantry/manual)
// in a window of its own: F1 opens it at the section of the view the user is in. The Chinese UI
// shows the Chinese manual. Not modal: the user reads it beside the window.
class HelpWindow final : public QDialog
{
    Q_OBJECT

public:
    explicit HelpWindow(QWidget *parent = nullptr);

    // The section `topic` ("files", "prices", … as the manual's anchors); the start when unknown.
    void showTopic(const QString &topic);
    QString currentTopic() const { return m_topic; }
    QTextBrowser *browser() const { return m_browser; }

    // Every section the manual has, in order.
    static QStringList topics();
    // The manual for the application's language (QLocale's default), as a qrc URL.
    static QUrl manualUrl();

private:
    QTextBrowser *m_browser = nullptr;
    QString m_topic;
};

} // namespace gantry::ui
