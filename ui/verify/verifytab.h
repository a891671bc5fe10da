#pragma once

#include "ui/common/detailtab.h"
#include "core/verify/assessment.h"
#include "core/verify/history.h"
#include "core/verify/remoteverifier.h"
#include "core/verify/machinechecks.h"

#include <QPointer>

class QLabel;
class QListWidget;
class QProgressBar;
class QPushButton;
class QSortFilterProxyModel;
class QSplitter;
class QTabWidget;
class QTableView;
class QPlainTextEdit;

namespace gantry::ui {

class AcceptancePanel;
class DoctorModel;
class ReputationModel;
class VerifyResultsModel;

// The Verify tab: starts Doctor, Verify and the acceptance test through the core's MachineChecks (each on an SSH
// session of its own, so the machine's other tabs stay usable meanwhile, and owned by the machine,
// so a check goes on while another machine is shown), shows the selected machine's live progress,
// the per-test table with verdict colours, the overall verdict, the doctor's checks with fixes, and
// past runs. Cancel stops the shown machine's check only.
class VerifyTab final : public DetailTab
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(VerifyTab)

public:
    // checks: the application core's (AppCore::checks()); tests may leave it to the tab.
    explicit VerifyTab(const AppContext &context, verify::MachineChecks *checks = nullptr, QWidget *parent = nullptr);
    ~VerifyTab() override;

    QString title() const override;
    void setMachine(const SavedHost &host, ssh::Connection *connection) override;
    void clearMachine() override;

    // What the provider advertised for the current machine (model, count, VRAM, price); the
    // provider integration fills it, a saved host gives provider and price only.
    void setAdvertised(const verify::Advertised &advertised);
    // The gantry-verify to upload (default: next to the app, then <build>/kernels/).
    void setBinaryPath(const QString &path) { m_binaryPath = path; }
    // Where uploads are cached on the machine (default ~/.cache/gantry; tests use a temporary one).
    void setRemoteCacheDir(const QString &dir) { m_remoteCacheDir = dir; }

    // Shows a finished run (also used by tests with a recorded result).
    void showOutcome(const verify::VerifyOutcome &outcome);
    void showDoctor(const QList<verify::DoctorCheck> &checks);
    void showHistory(const QList<verify::HistoryEntry> &entries);
    void showAcceptance(const verify::Acceptance &acceptance);
    // A history line's start: when, the verdict and the GPUs tested, in words.
    static QString historyHeadline(const verify::HistoryEntry &entry);

    // A check runs on the shown machine.
    bool isRunning() const;
    VerifyResultsModel *resultsModel() const { return m_results; }
    DoctorModel *doctorModel() const { return m_doctor; }
    ReputationModel *reputationModel() const { return m_reputation; }
    AcceptancePanel *acceptancePanel() const { return m_acceptance; }
    // Runs the acceptance test (the button): passive health and figures against references.
    void startAcceptance();
    QTableView *machinesView() const { return m_machines; }
    // "Forget this record…" (under Machine records, and their context menu): the chosen record,
    // asked first, through ReputationStore::forget as `gantry-cli verify-history --forget` does.
    void forgetSelectedRecord();
    QPushButton *forgetRecordButton() const { return m_forgetRecord; }
    QSortFilterProxyModel *resultsProxy() const { return m_proxy; }
    QString bannerText() const;
    QString statusText() const;

signals:
    // Emitted on the GUI thread when the shown machine's check (verify, doctor, acceptance) ends,
    // successfully or not.
    void runFinished();
    // The machine records (machines.json) were read again.
    void reputationLoaded();

private:
    void createWidgets();
    // The records table with its actions beside it (below, they took the rows' height at 700 px).
    QWidget *createRecordsPane();
    void layOut();
    void start(bool quick);
    void startDoctor();
    bool beginRun(const QString &status);
    void started(const Result<void> &started);
    void onCheckProgress(const QString &hostName);
    void onCheckFinished(const QString &hostName);
    // The machine's check in flight, or the last one that finished since Gantry started.
    void showChecksOf(const QString &hostName);
    void showFinished(const verify::FinishedCheck &check);
    verify::Advertised advertised() const;
    void onVerified(const Result<verify::VerifyRun> &run);
    void onDoctorDone(const Result<QList<verify::DoctorCheck>> &checks);
    void onAccepted(const Result<verify::Acceptance> &acceptance);
    void showAssessed(const verify::VerifyOutcome &outcome, const verify::Assessment &assessment);
    void onConnectionState();
    void cancel();
    void updateButtons();
    void onFailed(const QString &message);
    // The idle hint ("Connect to …", "Ready to verify …") follows the connection until a run or a
    // result replaces it; setStatus() is every other status.
    void showHint();
    void setStatus(const QString &text);
    void loadHistory();
    // Every machine's record, read off the GUI thread (after each run too: it changes it).
    void loadReputation();
    void setBanner(verify::Verdict verdict, const QString &text);

    AppContext m_context;
    SavedHost m_host;
    QPointer<ssh::Connection> m_connection;
    verify::Advertised m_advertised; // as given; advertised() completes it from the saved host
    QString m_binaryPath;
    QString m_remoteCacheDir;
    bool m_statusIsHint = false;
    verify::MachineChecks *m_checks;

    QPushButton *m_run = nullptr;
    QPushButton *m_quick = nullptr;
    QPushButton *m_doctorButton = nullptr;
    QPushButton *m_acceptButton = nullptr;
    QPushButton *m_cancel = nullptr;
    QProgressBar *m_progress = nullptr;
    QLabel *m_status = nullptr;
    QLabel *m_banner = nullptr;
    QLabel *m_method = nullptr;
    QTableView *m_table = nullptr;
    QTableView *m_doctorView = nullptr;
    QTabWidget *m_lowerTabs = nullptr; // Doctor | Acceptance test
    QSplitter *m_split = nullptr;      // Results | Doctor, Acceptance and History | Machine records
    AcceptancePanel *m_acceptance = nullptr;
    QPlainTextEdit *m_findings = nullptr;
    QListWidget *m_history = nullptr;
    VerifyResultsModel *m_results = nullptr;
    QSortFilterProxyModel *m_proxy = nullptr;
    DoctorModel *m_doctor = nullptr;
    ReputationModel *m_reputation = nullptr;
    QTableView *m_machines = nullptr;
    QPushButton *m_forgetRecord = nullptr;
};

} // namespace gantry::ui
