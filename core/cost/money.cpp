#include "core/cost/money.h"

namespace gantry::cost {

QString moneyText(double amount, const QString &currency)
{
    const QString number = QString::number(amount, 'f', amount > 0 && amount < 0.01 ? 4 : 2);
    const QString code = currency.isEmpty() ? QStringLiteral("USD") : currency.toUpper();
    if (code == QLatin1String("USD"))
        return QLatin1Char('$') + number;
    if (code == QLatin1String("CNY"))
        return QStringLiteral("¥") + number;
    if (code == QLatin1String("EUR"))
        return QStringLiteral("€") + number;
    return number + QLatin1Char(' ') + code;
}

QString moneyTotalsText(const QMap<QString, double> &byCurrency, const QString &suffix)
{
    if (byCurrency.isEmpty())
        return moneyText(0, QStringLiteral("USD")) + suffix;
    QStringList parts;
    if (byCurrency.contains(QStringLiteral("USD")))
        parts << moneyText(byCurrency.value(QStringLiteral("USD")), QStringLiteral("USD")) + suffix;
    for (auto it = byCurrency.cbegin(); it != byCurrency.cend(); ++it) {
        if (it.key() != QLatin1String("USD"))
            parts << moneyText(it.value(), it.key()) + suffix;
    }
    return parts.join(QStringLiteral(" + "));
}

} // namespace gantry::cost
