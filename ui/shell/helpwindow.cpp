// SPDX-License-Identifier: Apache-2.0
#include "ui/shell/helpwindow.h"

#include <QDialogButtonBox>
#include <QLocale>
#include <QPushButton>
#include <QTextBrowser>
#include <QUrl>
#include <QVBoxLayout>

namespace gantry::ui {

HelpWindow::HelpWindow(QWidget *parent) : QDialog(parent)
{
    setObjectName(QStringLiteral("helpWindow"));
    setWindowTitle(tr("Gantry manual"));
    m_browser = new QTextBrowser(this);
    m_browser->setOpenExternalLinks(true);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::close);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_browser);
    layout->addWidget(buttons);
    resize(760, 640);
}

QStringList HelpWindow::topics()
{
    return {QStringLiteral("start"),     QStringLiteral("machines"), QStringLiteral("overview"),  QStringLiteral("files"),
            QStringLiteral("monitor"),   QStringLiteral("verify"),   QStringLiteral("jobs"),      QStringLiteral("prices"),
            QStringLiteral("instances"), QStringLiteral("clusters"), QStringLiteral("runs"),      QStringLiteral("transfers"),
            QStringLiteral("storage"),   QStringLiteral("fleet"),    QStringLiteral("cost"),      QStringLiteral("accounts"),
            QStringLiteral("shortcuts"), QStringLiteral("safety"),   QStringLiteral("cli")};
}

QUrl HelpWindow::manualUrl()
{
    const bool chinese = QLocale().language() == QLocale::Chinese;
    return QUrl(chinese ? QStringLiteral("qrc:/gantry/manual/zh_CN/index.html") : QStringLiteral("qrc:/gantry/manual/en/index.html"));
}

void HelpWindow::showTopic(const QString &topic)
{
    m_topic = topics().contains(topic) ? topic : QStringLiteral("start");
    QUrl url = manualUrl();
    if (m_browser->source().adjusted(QUrl::RemoveFragment) != url)
        m_browser->setSource(url);
    m_browser->scrollToAnchor(m_topic);
}

} // namespace gantry::ui
