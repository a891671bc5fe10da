// SPDX-License-Identifier: Apache-2.0
#include "ui/verify/acceptancepanel.h"

#include "ui/verify/verdictstyle.h"
#include "core/util/background.h"
#include "core/util/printable.h"

#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

namespace gantry::ui {

using namespace gantry::verify;

namespace {

Verdict bannerVerdict(AcceptVerdict verdict)
{
    switch (verdict) {
    case AcceptVerdict::Pass: return Verdict::Pass;
    case AcceptVerdict::Warn: return Verdict::Warn;
    case AcceptVerdict::Fail: return Verdict::Fail;
    case AcceptVerdict::Incomplete: return Verdict::Skip;
    }
    return Verdict::Skip;
}

} // namespace

AcceptanceModel::AcceptanceModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void AcceptanceModel::setChecks(const QList<AcceptCheck> &checks)
{
    beginResetModel();
    m_checks = checks;
    endResetModel();
}

int AcceptanceModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_checks.size());
}

int AcceptanceModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant AcceptanceModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const AcceptCheck &c = m_checks.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case GpuColumn: return c.gpu ? QString::number(*c.gpu) : tr("Machine");
        case CheckColumn: return c.name;
        case StatusColumn: return verdictLabel(c.status);
        // Details quote what the machine printed (kernel log lines, GPU names): shown escaped.
        case DetailColumn: return text::printable(c.detail);
        }
        break;
    case Qt::ToolTipRole:
        return text::printableLines(c.detail);
    case Qt::ForegroundRole:
        if (index.column() == StatusColumn)
            return verdictColor(c.status);
        break;
    case Qt::BackgroundRole:
        if (index.column() == StatusColumn)
            return verdictBackground(c.status);
        break;
    default:
        break;
    }
    return {};
}

QVariant AcceptanceModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case GpuColumn: return tr("GPU");
    case CheckColumn: return tr("Check");
    case StatusColumn: return tr("Status");
    case DetailColumn: return tr("Detail");
    }
    return {};
}

AcceptancePanel::AcceptancePanel(QWidget *parent)
    : QWidget(parent)
    , m_verdict(new QLabel(this))
    , m_reasons(new QLabel(this))
    , m_save(new QPushButton(tr("Save report…"), this))
    , m_view(new QTableView(this))
    , m_model(new AcceptanceModel(this))
{
    m_verdict->setWordWrap(true);
    m_verdict->setMargin(6);
    m_verdict->setText(tr("Run the acceptance test to decide: keep this machine or give it back."));
    m_reasons->setWordWrap(true);
    m_reasons->setTextFormat(Qt::PlainText);
    m_reasons->hide();
    m_save->setToolTip(tr("A printable page with the verdict, the figures and their references: what a refund request needs"));
    m_save->setEnabled(false);
    m_view->setModel(m_model);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->verticalHeader()->hide();
    m_view->setWordWrap(true);
    m_view->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_view->horizontalHeader()->setSectionResizeMode(AcceptanceModel::DetailColumn, QHeaderView::Stretch);
    m_view->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    auto *top = new QHBoxLayout;
    top->addWidget(m_verdict, 1);
    top->addWidget(m_save, 0, Qt::AlignTop);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(top);
    layout->addWidget(m_reasons);
    layout->addWidget(m_view, 1);
    connect(m_save, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Save acceptance report"),
                                                          QStringLiteral("acceptance-%1.html").arg(m_acceptance->host),
                                                          tr("Web page (*.html)"));
        if (!path.isEmpty())
            saveReport(path);
    });
}

void AcceptancePanel::setAcceptance(const Acceptance &acceptance)
{
    m_acceptance = acceptance;
    const Verdict verdict = bannerVerdict(acceptance.verdict);
    const QString word = acceptance.verdict == AcceptVerdict::Incomplete ? tr("Incomplete") : verdictLabel(verdict);
    m_verdict->setStyleSheet(QStringLiteral("QLabel { color: %1; background: %2; border: 1px solid %1; border-radius: 4px; "
                                            "font-weight: bold; }")
                                 .arg(verdictColor(verdict).name(), verdictBackground(verdict).name()));
    m_verdict->setText(tr("%1 — %2").arg(word.toUpper(), acceptance.nextStep));
    QStringList shown = acceptance.reasons.mid(0, 4);
    for (QString &reason : shown)
        reason = QStringLiteral("• ") + text::printable(reason);
    if (acceptance.reasons.size() > 4)
        shown.append(tr("… and %n more (see the table).", nullptr, int(acceptance.reasons.size() - 4)));
    m_reasons->setText(shown.join(QLatin1Char('\n')));
    m_reasons->setVisible(!shown.isEmpty());
    m_model->setChecks(acceptance.checks);
    m_save->setEnabled(true);
}

void AcceptancePanel::clear()
{
    m_acceptance.reset();
    m_model->setChecks({});
    m_reasons->hide();
    m_verdict->setStyleSheet({});
    m_verdict->setText(tr("Run the acceptance test to decide: keep this machine or give it back."));
    m_save->setEnabled(false);
}

QString AcceptancePanel::verdictText() const
{
    return m_verdict->text();
}

void AcceptancePanel::saveReport(const QString &path)
{
    if (!m_acceptance)
        return;
    background::run<QString>(this, [path, acceptance = *m_acceptance](const CancelToken &) {
        auto written = writeAcceptanceReport(path, acceptance);
        return written ? QString() : written.error().message;
    }, [this, path](QString error) { emit reportSaved(path, error); });
}

} // namespace gantry::ui
