#pragma once

#include "core/hosts/hoststore.h"

#include <QWidget>

namespace gantry {
class ConnectionManager;
namespace ssh { class Connection; }
} // namespace gantry

namespace gantry::ui {

// Services every panel can reach; owned by the main window.
struct AppContext
{
    QString configDir;
    HostStore *hosts = nullptr;
    ConnectionManager *connections = nullptr; // also gives the SecretStore
};

// One tab of the machine detail area (Overview, Files, Monitor, Verify, Jobs…).
class DetailTab : public QWidget
{
    Q_OBJECT

public:
    using QWidget::QWidget;
    virtual QString title() const = 0;
    // The selected machine changed, or its connection did. connection is nullptr until the user
    // connects; when non-null check connection->state() and listen to its stateChanged.
    virtual void setMachine(const SavedHost &host, ssh::Connection *connection) = 0;
    virtual void clearMachine() = 0;
};

} // namespace gantry::ui
