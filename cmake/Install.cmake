# Install like a Linux desktop program: binaries, the .desktop entry, the icon theme files,
# AppStream metainfo, man pages, bash completion, the Prometheus alert rules, the Grafana
# dashboard and the package's copyright; and a Debian package with `cpack -G DEB`, whose Depends
# dpkg-shlibdeps computes from the binaries.
include(GNUInstallDirs)

set(OUTBOX_APP_ID org.outboxhealth.Dashboard)
set(OUTBOX_RES ${PROJECT_SOURCE_DIR}/resources)

install(TARGETS outboxctl outbox-dashboard RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES ${OUTBOX_RES}/desktop/${OUTBOX_APP_ID}.desktop
    DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
install(FILES ${OUTBOX_RES}/desktop/${OUTBOX_APP_ID}.metainfo.xml
    DESTINATION ${CMAKE_INSTALL_DATADIR}/metainfo)
install(FILES ${OUTBOX_RES}/icons/outbox-health.svg
    DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps)
foreach(size 16 32 48 64 128 256)
    install(FILES ${OUTBOX_RES}/icons/outbox-health-${size}.png
        DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/${size}x${size}/apps
        RENAME outbox-health.png)
endforeach()
install(FILES ${OUTBOX_RES}/completion/outboxctl
    DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions)

# What Prometheus and Grafana load: the alert rules and the dashboard of `outboxctl serve`'s
# metrics; and an example of serve's --web.config.file.
install(FILES ${OUTBOX_RES}/prometheus/outbox-alerts.yml ${OUTBOX_RES}/prometheus/web-config.example.yml
    ${OUTBOX_RES}/prometheus/alertmanager.yml
    DESTINATION ${CMAKE_INSTALL_DATADIR}/outbox-health/prometheus)
install(FILES ${OUTBOX_RES}/grafana/outbox-health.json
    DESTINATION ${CMAKE_INSTALL_DATADIR}/outbox-health/grafana)

# Man pages, compressed reproducibly (gzip -n: no name or time stamp), as Debian wants them.
# outboxctl's is written first (man/outboxctl.1 in the build folder): its command list comes
# from the program's table of commands (cmake/ManCommands.cmake).
set(outbox_man_dir ${CMAKE_CURRENT_BINARY_DIR}/man)
add_custom_command(OUTPUT ${outbox_man_dir}/outboxctl.1
    COMMAND ${CMAKE_COMMAND} -E make_directory ${outbox_man_dir}
    COMMAND ${CMAKE_COMMAND} -DOUTBOXCTL=$<TARGET_FILE:outboxctl>
        -DTEMPLATE=${OUTBOX_RES}/man/outboxctl.1 -DOUTPUT=${outbox_man_dir}/outboxctl.1
        -P ${CMAKE_CURRENT_LIST_DIR}/ManCommands.cmake
    DEPENDS outboxctl ${OUTBOX_RES}/man/outboxctl.1 ${CMAKE_CURRENT_LIST_DIR}/ManCommands.cmake
    VERBATIM)
set(outbox_man_pages)
foreach(page outboxctl.1 outbox-dashboard.1)
    set(source ${OUTBOX_RES}/man/${page})
    if(page STREQUAL "outboxctl.1")
        set(source ${outbox_man_dir}/${page})
    endif()
    set(gz ${outbox_man_dir}/${page}.gz)
    add_custom_command(OUTPUT ${gz}
        COMMAND ${CMAKE_COMMAND} -E make_directory ${outbox_man_dir}
        COMMAND gzip -9nc ${source} > ${gz}
        DEPENDS ${source} VERBATIM)
    list(APPEND outbox_man_pages ${gz})
endforeach()
add_custom_target(outbox-man-pages ALL DEPENDS ${outbox_man_pages})
install(FILES ${outbox_man_pages} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)

# Debian's changelog and copyright for the package's doc directory.
set(changelog ${CMAKE_CURRENT_BINARY_DIR}/changelog.Debian.gz)
add_custom_command(OUTPUT ${changelog}
    COMMAND gzip -9nc ${OUTBOX_RES}/debian/changelog > ${changelog}
    DEPENDS ${OUTBOX_RES}/debian/changelog VERBATIM)
add_custom_target(outbox-changelog ALL DEPENDS ${changelog})
install(FILES ${OUTBOX_RES}/debian/copyright ${changelog}
    DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/outbox-health)

set(CPACK_PACKAGE_NAME outbox-health)
set(CPACK_PACKAGE_VENDOR "Outbox Health developers")
set(CPACK_PACKAGE_CONTACT "Outbox Health developers <maintainers@outboxhealth.org>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "health dashboard and CLI for a transactional outbox")
# Debian's extended description, under the summary line (lines under 80 columns).
string(CONCAT CPACK_PACKAGE_DESCRIPTION
    "Outbox Health shows the health of a transactional outbox on PostgreSQL\n"
    "or SQLite: events due, scheduled, in flight, delivered and parked DEAD,\n"
    "their attempt history and why they failed. Operators replay parked\n"
    "events safely. outboxctl, the command-line twin, checks the health from\n"
    "scripts, replays events and runs a simulated relay that teaches the\n"
    "retry lifecycle.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION database)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "https://outboxhealth.org")
# Depends from the binaries' shared libraries (dpkg-shlibdeps)...
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# ...plus the Qt SQL drivers, which Qt loads as plugins at run time, so no tool can see them.
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libqt6sql6-sqlite, libqt6sql6-psql")
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
include(CPack)
