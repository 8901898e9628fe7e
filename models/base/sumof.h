// The sum of one member over a list of plain values: sumOf(throughput, &ThroughputMinute::failed).
#pragma once

template <typename List, typename Item, typename Value>
Value sumOf(const List &items, Value Item::*member)
{
    Value sum = 0;
    for (const Item &item : items)
        sum += item.*member;
    return sum;
}
