// outbox-dashboard: the Outbox Health dashboard (dashboardmain.h tells its options).
#include "dashboardmain.h"

int main(int argc, char *argv[])
{
    return DashboardMain::run(argc, argv);
}
