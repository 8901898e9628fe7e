// The banners that come and go while the window is open (the stale banner, the alert bar) float
// over the bottom edge of the page area instead of taking room in the layout: one appearing never
// moves what is under the pointer (a banner inserted above the tiles pushed them and the table
// down 76 px, and a click meant for a row hit a tile). While shown it covers the page's last
// lines; it is as wide as the page area and as tall as its banners.
#pragma once

#include <QWidget>

class QVBoxLayout;

class BannerOverlay : public QWidget
{
    Q_OBJECT
public:
    // Floats over `area`, a sibling under the same parent (it is made `area`'s sibling).
    explicit BannerOverlay(QWidget *area);

    // Stacked in the order added, the first at the top.
    void addBanner(QWidget *banner);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void place();

    QWidget *m_area;
    QVBoxLayout *m_banners;
};
