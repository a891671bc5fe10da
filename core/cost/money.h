#pragma once

#include <QMap>
#include <QString>

namespace gantry::cost {

// An amount with its currency, never converted: "$2.50", "¥2.50", "€2.50", else "2.50 CHF".
// Symbols only where one currency owns them, so "¥" always means yuan here. Cents, or four
// decimals below one cent so that a small charge does not read as nothing.
QString moneyText(double amount, const QString &currency);
// Amounts per currency side by side, dollars first: "$12.50 + ¥30.00" ("$0.00" when empty).
QString moneyTotalsText(const QMap<QString, double> &byCurrency, const QString &suffix = {});

} // namespace gantry::cost
