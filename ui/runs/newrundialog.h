// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/runs/runspec.h"

#include <QDialog>
#include <QTimer>

class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QTableWidget;

namespace gantry::runs { class RunService; }
namespace gantry::providers { class PriceBoard; }

namespace gantry::ui {

// New run…: a folder, its run spec in an editor (the folder's run.yaml, else a starting point),
// checked as the user types — the parser's error in one line — with the offers the spec would
// pick right now and their price. Start saves the spec as FOLDER/run.yaml (on a worker) and
// starts the run on the application core, which drives it after the dialog closes.
class NewRunDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(NewRunDialog)

public:
    NewRunDialog(runs::RunService *service, providers::PriceBoard *prices, QWidget *parent = nullptr);

    // Reads FOLDER/run.yaml on a worker into the editor (a starting spec when there is none).
    void setFolder(const QString &folder);
    QString folder() const { return m_folder; }
    void setSpecText(const QString &yaml);

    QPlainTextEdit *editor() const { return m_editor; }
    QLabel *verdict() const { return m_verdict; }
    QTableWidget *offers() const { return m_offers; }
    QPushButton *startButton() const { return m_start; }
    // Checks the spec now (the editor checks it 200 ms after the last key).
    void validateNow();
    // Saves and starts; started() or an error in verdict() follows.
    void startRun();

    // The spec a new folder starts with (its name from the folder's).
    static QString starterSpec(const QString &folder);

signals:
    void folderLoaded();
    void started(const QString &name);

private:
    void chooseFolder();
    void showOffers(const runs::RunSpec &spec);

    runs::RunService *m_service;
    providers::PriceBoard *m_prices;
    QString m_folder;
    QLineEdit *m_folderEdit = nullptr;
    QPlainTextEdit *m_editor = nullptr;
    QLabel *m_verdict = nullptr;
    QTableWidget *m_offers = nullptr;
    QPushButton *m_start = nullptr;
    QTimer m_debounce;
    bool m_valid = false;
    bool m_starting = false;
};

} // namespace gantry::ui
