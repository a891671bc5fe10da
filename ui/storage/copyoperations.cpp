// SPDX-License-Identifier: Apache-2.0
#include "ui/storage/copyoperations.h"

#include "core/util/background.h"
#include "ui/common/themecolors.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QTimer>
#include <QVBoxLayout>

namespace gantry::ui {

struct CopyOperations::Row
{
    QWidget *widget = nullptr;
    QLabel *title = nullptr;
    QProgressBar *bar = nullptr;
    QLabel *detail = nullptr;
    QPushButton *button = nullptr;
    CancelToken token;
    std::shared_ptr<CopyProgress> progress = std::make_shared<CopyProgress>();
    bool running = true;
};

CopyOperations::CopyOperations(QWidget *parent) : QWidget(parent)
{
    m_rows = new QVBoxLayout(this);
    m_rows->setContentsMargins(0, 0, 0, 0);
    m_timer = new QTimer(this);
    m_timer->setInterval(250);
    connect(m_timer, &QTimer::timeout, this, &CopyOperations::refresh);
    hide(); // shown with the first copy
}

void CopyOperations::start(const QString &title, Work work, std::function<void()> finished)
{
    auto row = std::make_shared<Row>();
    row->widget = new QWidget(this);
    auto *line = new QHBoxLayout(row->widget);
    line->setContentsMargins(0, 0, 0, 0);
    row->title = new QLabel(title, row->widget);
    row->title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    row->title->setTextFormat(Qt::PlainText); // names of objects and remote files
    row->bar = new QProgressBar(row->widget);
    row->bar->setRange(0, 0); // busy until the copy is planned
    row->bar->setMaximumWidth(220);
    row->detail = new QLabel(tr("Starting…"), row->widget);
    row->detail->setTextInteractionFlags(Qt::TextSelectableByMouse);
    row->detail->setTextFormat(Qt::PlainText); // errors may quote a machine or a bucket
    row->button = new QPushButton(tr("Cancel"), row->widget);
    line->addWidget(row->title, 2);
    line->addWidget(row->bar, 1);
    line->addWidget(row->detail, 3);
    line->addWidget(row->button);
    m_rows->addWidget(row->widget);
    m_live.push_back(row);
    ++m_running;
    show();
    m_timer->start();
    std::weak_ptr<Row> weak = row;
    connect(row->button, &QPushButton::clicked, this, [this, weak] {
        const auto r = weak.lock();
        if (!r)
            return;
        if (r->running) {
            r->token.cancel();
            r->detail->setText(tr("Stopping…"));
            return;
        }
        r->widget->deleteLater();
        std::erase(m_live, r);
        if (m_live.empty())
            hide();
    });
    row->token = background::run<Result<QString>>(
        this,
        [work = std::move(work), progress = row->progress](const CancelToken &token) { return work(token, *progress); },
        [this, row, finished = std::move(finished)](Result<QString> result) {
            row->running = false;
            --m_running;
            refresh();
            row->bar->setRange(0, 100);
            row->button->setText(tr("Dismiss"));
            if (result) {
                row->bar->setValue(100);
                row->detail->setText(*result);
                if (finished)
                    finished();
            } else {
                setToneText(row->detail, result.error().code == ErrorCode::Cancelled ? Tone::Warning : Tone::Error);
                row->detail->setText(result.error().message);
            }
            if (m_running == 0) {
                m_timer->stop();
                emit allFinished();
            }
        });
}

void CopyOperations::refresh()
{
    for (const std::shared_ptr<Row> &row : m_live) {
        if (!row->running)
            continue;
        const CopyProgress &p = *row->progress;
        const qint64 total = p.totalBytes.load();
        if (p.totalFiles.load() == 0)
            continue;
        const qint64 done = std::min(p.doneBytes.load(), total);
        row->bar->setRange(0, 1000);
        row->bar->setValue(total > 0 ? int(done * 1000 / total) : 0);
        const QLocale locale;
        row->detail->setText(tr("%1 of %2 files, %3 of %4")
                                 .arg(p.doneFiles.load())
                                 .arg(p.totalFiles.load())
                                 .arg(locale.formattedDataSize(done), locale.formattedDataSize(total)));
    }
}

QStringList CopyOperations::rowTexts() const
{
    QStringList texts;
    for (const std::shared_ptr<Row> &row : m_live)
        texts << row->title->text() + QStringLiteral(": ") + row->detail->text();
    return texts;
}

} // namespace gantry::ui
