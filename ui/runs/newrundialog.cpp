// SPDX-License-Identifier: Apache-2.0
#include "ui/runs/newrundialog.h"

#include "core/providers/priceboard.h"
#include "core/providers/providerhub.h"
#include "core/runs/runservice.h"
#include "core/util/background.h"
#include "ui/common/filedialogs.h"
#include "ui/common/tablelayout.h"
#include "ui/runs/runlistmodel.h"

#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSaveFile>
#include <QTableWidget>
#include <QVBoxLayout>

namespace gantry::ui {

namespace {

constexpr int kOffersShown = 8;

QString specPathIn(const QString &folder)
{
    return QDir(folder).filePath(QStringLiteral("run.yaml"));
}

} // namespace

NewRunDialog::NewRunDialog(runs::RunService *service, providers::PriceBoard *prices, QWidget *parent)
    : QDialog(parent)
    , m_service(service)
    , m_prices(prices)
{
    setWindowTitle(tr("New run"));
    auto *layout = new QVBoxLayout(this);
    auto *folderRow = new QHBoxLayout;
    folderRow->addWidget(new QLabel(tr("Folder:"), this));
    m_folderEdit = new QLineEdit(this);
    m_folderEdit->setReadOnly(true);
    m_folderEdit->setPlaceholderText(tr("Choose the folder with your training code"));
    folderRow->addWidget(m_folderEdit, 1);
    auto *choose = new QPushButton(tr("Choose…"), this);
    connect(choose, &QPushButton::clicked, this, &NewRunDialog::chooseFolder);
    folderRow->addWidget(choose);
    layout->addLayout(folderRow);

    layout->addWidget(new QLabel(tr("Run spec (saved as run.yaml in the folder):"), this));
    m_editor = new QPlainTextEdit(this);
    m_editor->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_editor->setLineWrapMode(QPlainTextEdit::NoWrap);
    layout->addWidget(m_editor, 3);
    m_verdict = new QLabel(this);
    m_verdict->setWordWrap(true);
    m_verdict->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_verdict);

    layout->addWidget(new QLabel(tr("What it would rent right now (cheapest first):"), this));
    m_offers = new QTableWidget(0, 4, this);
    m_offers->setHorizontalHeaderLabels({tr("Provider"), tr("Type"), tr("GPU"), tr("Price")});
    m_offers->verticalHeader()->hide();
    m_offers->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_offers->setSelectionMode(QAbstractItemView::NoSelection);
    TableLayout::fitToWidth(m_offers, 1);
    layout->addWidget(m_offers, 2);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    m_start = buttons->addButton(tr("Start"), QDialogButtonBox::AcceptRole);
    m_start->setEnabled(false);
    connect(m_start, &QPushButton::clicked, this, &NewRunDialog::startRun);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);

    m_debounce.setSingleShot(true);
    m_debounce.setInterval(200);
    connect(&m_debounce, &QTimer::timeout, this, &NewRunDialog::validateNow);
    connect(m_editor, &QPlainTextEdit::textChanged, &m_debounce, qOverload<>(&QTimer::start));
    // New prices change what the spec would pick.
    connect(m_prices, &providers::PriceBoard::refreshed, this, &NewRunDialog::validateNow);
    resize(760, 640);
    validateNow();
}

QString NewRunDialog::starterSpec(const QString &folder)
{
    QString name = QFileInfo(folder).fileName();
    name.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9._-]")), QStringLiteral("-"));
    if (name.isEmpty() || !name.at(0).isLetterOrNumber())
        name.prepend(QStringLiteral("run"));
    return QStringLiteral("name: %1\n"
                          "resources: {gpu: any, count: 1, spot: true}\n"
                          "workdir: .\n"
                          "setup: pip install -r requirements.txt\n"
                          "run: python train.py --resume-from \"$GANTRY_CHECKPOINT_DIR\"\n"
                          "checkpoint: {path: checkpoints/, every: 5m}\n"
                          "results: [outputs/]\n"
                          "max_attempts: 3\n").arg(name.left(48));
}

void NewRunDialog::chooseFolder()
{
    const QString folder = FileDialogs::existingFolder(this, tr("Folder of the run"));
    if (!folder.isEmpty())
        setFolder(folder);
}

void NewRunDialog::setFolder(const QString &folder)
{
    m_folder = folder;
    m_folderEdit->setText(QDir::toNativeSeparators(folder));
    background::run<QString>(this, [folder] {
        QFile file(specPathIn(folder));
        return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : starterSpec(folder);
    }, [this](QString text) {
        setSpecText(text);
        emit folderLoaded();
    });
}

void NewRunDialog::setSpecText(const QString &yaml)
{
    m_editor->setPlainText(yaml);
    validateNow();
}

void NewRunDialog::validateNow()
{
    m_debounce.stop();
    m_valid = false;
    m_offers->setRowCount(0);
    if (m_folder.isEmpty()) {
        m_verdict->setText(tr("Choose a folder first."));
        m_start->setEnabled(false);
        return;
    }
    // Parsing a few lines of YAML is quick; nothing here touches the disk.
    Result<runs::RunSpec> spec = runs::parseRunSpec(m_editor->toPlainText().toUtf8(), QStringLiteral("run.yaml"), m_folder);
    if (!spec) {
        m_verdict->setText(spec.error().message.section(QLatin1Char('\n'), 0, 0));
        m_start->setEnabled(false);
        return;
    }
    m_valid = true;
    showOffers(*spec);
    m_start->setEnabled(!m_starting);
}

void NewRunDialog::showOffers(const runs::RunSpec &spec)
{
    const QList<runs::RunOffer> offers = m_service->offersFor(spec);
    if (offers.isEmpty()) {
        m_verdict->setText(m_prices->allTypes().isEmpty()
            ? tr("The spec is valid. No prices are known yet; the run looks for an offer when it starts.")
            : tr("The spec is valid, but nothing fits it right now; the run waits for capacity when it starts."));
        return;
    }
    const runs::RunOffer &best = offers.first();
    m_verdict->setText(tr("The spec is valid. It would rent %1 on %2 at $%3/h.")
                           .arg(best.type.name, best.provider).arg(best.pricePerHour, 0, 'f', 3));
    m_offers->setRowCount(int(std::min<qsizetype>(offers.size(), kOffersShown)));
    for (int row = 0; row < m_offers->rowCount(); ++row) {
        const runs::RunOffer &offer = offers.at(row);
        const QString gpu = offer.type.gpuCount > 0 ? QStringLiteral("%1× %2").arg(offer.type.gpuCount).arg(offer.type.gpuModel) : QString();
        const QStringList cells{offer.provider, offer.type.spot || offer.bidPerHour > 0 ? tr("%1 (spot)").arg(offer.type.name) : offer.type.name,
                                gpu, tr("$%1/h").arg(offer.pricePerHour, 0, 'f', 3)};
        for (int column = 0; column < cells.size(); ++column)
            m_offers->setItem(row, column, new QTableWidgetItem(cells.at(column)));
        m_offers->item(row, 3)->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    }
}

void NewRunDialog::startRun()
{
    validateNow();
    if (!m_valid || m_starting)
        return;
    m_starting = true;
    m_start->setEnabled(false);
    const QString path = specPathIn(m_folder);
    const QByteArray yaml = m_editor->toPlainText().toUtf8();
    background::run<QString>(this, [path, yaml] {
        QSaveFile file(path);
        if (!file.open(QIODevice::WriteOnly) || file.write(yaml) != yaml.size() || !file.commit())
            return tr("Cannot save %1: %2.").arg(path, file.errorString());
        return QString();
    }, [this, path, yaml](QString error) {
        m_starting = false;
        Result<runs::RunSpec> spec = runs::parseRunSpec(yaml, QStringLiteral("run.yaml"), m_folder);
        if (error.isEmpty() && !spec)
            error = spec.error().message;
        Result<runs::ManagedRun *> run = error.isEmpty() ? m_service->start(*spec, path) : Result<runs::ManagedRun *>(Error{ErrorCode::Io, error});
        if (!run) {
            m_verdict->setText(run.error().message.section(QLatin1Char('\n'), 0, 0));
            m_start->setEnabled(true);
            return;
        }
        emit started(spec->name);
        accept();
    });
}

} // namespace gantry::ui
