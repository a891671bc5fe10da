// SPDX-License-Identifier: Apache-2.0
#include "ui/storage/copyoperations.h"

#include "ui/common/themecolors.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>

namespace gantry::ui {

using storage::CopyJob;
using storage::CopyJobState;

struct CopyOperations::Row
{
    QWidget *widget = nullptr;
    QLabel *title = nullptr;
    QProgressBar *bar = nullptr;
    QLabel *detail = nullptr;
    QPushButton *button = nullptr;
};

CopyOperations::CopyOperations(storage::CopyJobs *jobs, QWidget *parent)
    : QWidget(parent)
    , m_jobs(jobs ? jobs : new storage::CopyJobs(this))
{
    m_rows = new QVBoxLayout(this);
    m_rows->setContentsMargins(0, 0, 0, 0);
    connect(m_jobs, &storage::CopyJobs::jobAdded, this, &CopyOperations::addRow);
    connect(m_jobs, &storage::CopyJobs::jobAboutToBeRemoved, this, &CopyOperations::removeRow);
    connect(m_jobs, &storage::CopyJobs::jobsChanged, this, [this](int first, int last) {
        for (int row = first; row <= last && row < m_jobs->jobs().size(); ++row)
            refresh(m_jobs->jobs().at(row));
    });
    connect(m_jobs, &storage::CopyJobs::allFinished, this, &CopyOperations::allFinished);
    for (int row = 0; row < m_jobs->jobs().size(); ++row)
        addRow(row);
    setVisible(!m_live.isEmpty()); // shown with the first copy
}

void CopyOperations::start(const QString &title, Work work, std::function<void()> finished, const QStringList &hosts)
{
    // The copies outlive this panel (they are the application's): its follow-up only while it is there.
    std::function<void()> guarded;
    if (finished)
        guarded = [alive = QPointer<CopyOperations>(this), finished = std::move(finished)] {
            if (alive)
                finished();
        };
    m_jobs->start(title, hosts, std::move(work), std::move(guarded));
}

void CopyOperations::addRow(int jobRow)
{
    const CopyJob &job = m_jobs->jobs().at(jobRow);
    auto row = std::make_shared<Row>();
    row->widget = new QWidget(this);
    auto *line = new QHBoxLayout(row->widget);
    line->setContentsMargins(0, 0, 0, 0);
    row->title = new QLabel(job.title, row->widget);
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
    m_live.insert(job.id, row);
    show();
    const quint64 id = job.id;
    connect(row->button, &QPushButton::clicked, this, [this, id] {
        const CopyJob *j = m_jobs->job(id);
        if (j && j->isRunning()) {
            m_jobs->cancel(id);
            if (const auto r = m_live.value(id))
                r->detail->setText(tr("Stopping…"));
            return;
        }
        m_jobs->remove(id);
    });
    refresh(job);
}

void CopyOperations::removeRow(int jobRow)
{
    const std::shared_ptr<Row> row = m_live.take(m_jobs->jobs().at(jobRow).id);
    if (row)
        row->widget->deleteLater();
    if (m_live.isEmpty())
        hide();
}

void CopyOperations::refresh(const CopyJob &job)
{
    const std::shared_ptr<Row> row = m_live.value(job.id);
    if (!row)
        return;
    if (!job.isRunning()) {
        row->bar->setRange(0, 100);
        row->button->setText(tr("Dismiss"));
        if (job.state == CopyJobState::Done) {
            row->bar->setValue(100);
        } else {
            setToneText(row->detail, job.state == CopyJobState::Cancelled ? Tone::Warning : Tone::Error);
        }
        row->detail->setText(job.message);
        return;
    }
    const CopyProgress &p = *job.progress;
    if (!job.isPlanned())
        return;
    const qint64 total = p.totalBytes.load();
    const qint64 done = std::min(p.doneBytes.load(), total);
    row->bar->setRange(0, 1000);
    if (total == 0) { // between machines: counted by files
        const int files = std::max(1, p.totalFiles.load());
        row->bar->setValue(std::min(p.doneFiles.load(), files) * 1000 / files);
        row->detail->setText(tr("%1 of %2 files").arg(std::min(p.doneFiles.load(), files)).arg(files));
        return;
    }
    row->bar->setValue(int(done * 1000 / total));
    const QLocale locale;
    row->detail->setText(tr("%1 of %2 files, %3 of %4")
                             .arg(p.doneFiles.load())
                             .arg(p.totalFiles.load())
                             .arg(locale.formattedDataSize(done), locale.formattedDataSize(total)));
}

QStringList CopyOperations::rowTexts() const
{
    QStringList texts;
    for (const CopyJob &job : m_jobs->jobs()) {
        if (const auto row = m_live.value(job.id))
            texts << row->title->text() + QStringLiteral(": ") + row->detail->text();
    }
    return texts;
}

} // namespace gantry::ui
