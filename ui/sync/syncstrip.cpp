#include "ui/sync/syncstrip.h"

#include "core/sync/syncservice.h"

#include <QCheckBox>
#include <QDir>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QToolButton>
#include <QVBoxLayout>

namespace gantry::ui {

namespace {
const char *const kStateLabel = "gantry-sync-state";
}

SyncStrip::SyncStrip(sync::SyncService *service, QWidget *parent) : QWidget(parent), m_service(service), m_rows(new QVBoxLayout(this))
{
    m_rows->setContentsMargins(0, 0, 0, 0);
    // Queued: a row's own "Keep in sync" toggle changes the pairs, and its checkbox must not be
    // deleted while it is still emitting.
    connect(m_service, &sync::SyncService::pairsChanged, this, [this](const QString &host) {
        if (host == m_host) rebuild();
    }, Qt::QueuedConnection);
    connect(m_service, &sync::SyncService::statusChanged, this, [this](const QString &host) {
        if (host == m_host) refreshStates();
    });
    setVisible(false);
}

void SyncStrip::setHost(const QString &host)
{
    m_host = host;
    rebuild();
}

void SyncStrip::rebuild()
{
    while (QLayoutItem *item = m_rows->takeAt(0)) {
        if (QLayout *row = item->layout()) {
            while (QLayoutItem *child = row->takeAt(0)) {
                delete child->widget();
                delete child;
            }
        }
        delete item;
    }
    const auto pairs = m_service->pairs(m_host);
    for (const sync::SyncPair &pair : pairs) {
        auto *row = new QHBoxLayout;
        auto *where = new QLabel(tr("Sync %1 → %2").arg(QDir::toNativeSeparators(pair.localDir), pair.remoteDir), this);
        where->setTextInteractionFlags(Qt::TextSelectableByMouse);
        auto *keep = new QCheckBox(tr("Keep in sync"), this);
        keep->setChecked(pair.keepInSync);
        auto *state = new QLabel(this);
        state->setObjectName(QLatin1String(kStateLabel));
        state->setWordWrap(true);
        auto *now = new QToolButton(this);
        now->setText(tr("Sync now…"));
        connect(keep, &QCheckBox::toggled, this, [this, pair, state](bool on) {
            if (auto r = m_service->setKeepInSync(pair, on); !r) state->setText(r.error().message);
        });
        connect(now, &QToolButton::clicked, this, [this, pair] { emit openRequested(pair.localDir, pair.remoteDir); });
        row->addWidget(where);
        row->addWidget(keep);
        row->addWidget(state, 1);
        row->addWidget(now);
        m_rows->addLayout(row);
    }
    setVisible(!pairs.isEmpty());
    refreshStates();
}

void SyncStrip::refreshStates()
{
    const auto pairs = m_service->pairs(m_host);
    const auto labels = findChildren<QLabel *>(QLatin1String(kStateLabel));
    for (qsizetype i = 0; i < pairs.size() && i < labels.size(); ++i) {
        const auto s = m_service->status(pairs[i]);
        QString text;
        switch (s.state) {
        case sync::SyncService::State::Off: text = pairs[i].keepInSync ? tr("Starting…") : tr("Not kept in sync"); break;
        case sync::SyncService::State::Syncing: text = tr("Syncing…"); break;
        case sync::SyncService::State::Watching:
            text = tr("In sync (%1); watching for changes").arg(QLocale().toString(s.lastSynced.time(), QLocale::ShortFormat));
            break;
        case sync::SyncService::State::Failed: text = tr("Sync failed: %1").arg(s.message); break;
        }
        labels[i]->setText(text);
    }
}

QStringList SyncStrip::stateTexts() const
{
    QStringList out;
    for (const QLabel *label : findChildren<QLabel *>(QLatin1String(kStateLabel))) out.append(label->text());
    return out;
}

} // namespace gantry::ui
