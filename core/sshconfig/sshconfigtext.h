// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QCoreApplication>

namespace gantry::sshconfig {

// The translation context of core/sshconfig ("gantry::sshconfig") for its code that is not a QObject:
// one context per area, so a translator sees an area's messages together.
class SshconfigText
{
    Q_DECLARE_TR_FUNCTIONS(gantry::sshconfig)
};

} // namespace gantry::sshconfig
