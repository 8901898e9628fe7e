# Precompiled Qt headers for the test programs (docs/testing.md, "Precompiled headers").
# A test's compile is mostly parsing the Qt headers; two precompiled headers, one per set of
# Qt definitions (the tests without the widgets, the tests with them), are built once per build
# folder and shared by every test program (REUSE_FROM).
#
# They must not cost the compile cache its hits across clones in other folders:
# - the precompiled header itself is never cached (its target has no compiler launcher): a .pch
#   names the absolute files it was made from, so one restored from another clone's build would
#   name that clone's files. It is one compile per build folder and set of flags.
# - ccache hashes `<pch>.sum` instead of the .pch (CCACHE_PCH_EXTSUM, scripts/lib/build.sh), and
#   the .sum written here holds only what is the same in every clone: the header list, the
#   compiler, the flags, the Qt version and the installed Qt headers' time stamps.
# Clang only (the sanitizer build): GCC's .gch would want its own .sum name and -fpch-preprocess.
option(OUTBOX_PCH "Precompile the Qt headers for the test programs (clang)" ON)
if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    set(OUTBOX_PCH OFF)
endif()

# CMake's clang flags for a user of a .pch also include the header by its absolute path in the
# build folder (`-Xclang -include -Xclang /abs/cmake_pch.hxx`), which ccache hashes as it is: every
# test would miss the cache in a clone at another path. The .pch alone includes the same.
if(OUTBOX_PCH)
    set(CMAKE_CXX_COMPILE_OPTIONS_USE_PCH -Xclang -include-pch -Xclang <PCH_FILE>)
endif()

set(outbox_pch_core_headers <QtCore/QtCore> <QtSql/QtSql> <QtTest/QtTest>)
set(outbox_pch_widgets_headers ${outbox_pch_core_headers} <QtWidgets/QtWidgets>)

# The .sum next to the precompiled header of `target`, from path-independent inputs only.
function(outbox_pch_write_sum target headers)
    set(inputs "${headers}" "${CMAKE_CXX_COMPILER_ID}" "${CMAKE_CXX_COMPILER_VERSION}"
        "${CMAKE_CXX_FLAGS}" "${CMAKE_BUILD_TYPE}" "${CMAKE_CXX_FLAGS_${outbox_pch_config}}"
        "${CMAKE_CXX_STANDARD}" "${Qt6_VERSION}")
    foreach(module Core Sql Test Widgets Gui)
        get_target_property(dirs Qt6::${module} INTERFACE_INCLUDE_DIRECTORIES)
        foreach(dir IN LISTS dirs)
            if(EXISTS "${dir}/Qt${module}")
                file(TIMESTAMP "${dir}/Qt${module}" stamp UTC)
                list(APPEND inputs "Qt${module} ${stamp}")
            endif()
        endforeach()
    endforeach()
    string(SHA256 sum "${inputs}")
    set(pch_dir "${CMAKE_CURRENT_BINARY_DIR}/CMakeFiles/${target}.dir")
    file(WRITE "${pch_dir}/cmake_pch.hxx.pch.sum" "${sum}\n")
endfunction()

# outbox_pch_add(TARGET HEADERS QT_LIBRARIES...): a tiny library whose only job is the .pch.
function(outbox_pch_add target headers)
    string(TOUPPER "${CMAKE_BUILD_TYPE}" outbox_pch_config)
    file(WRITE "${CMAKE_CURRENT_BINARY_DIR}/${target}.cpp" "// precompiled headers only\n")
    add_library(${target} STATIC "${CMAKE_CURRENT_BINARY_DIR}/${target}.cpp")
    target_link_libraries(${target} PRIVATE ${ARGN})
    target_precompile_headers(${target} PRIVATE ${headers})
    # Clang writes no time stamp into the .pch with this ("PRECOMPILED HEADERS" in man ccache).
    target_compile_options(${target} PRIVATE "SHELL:-Xclang -fno-pch-timestamp")
    set_target_properties(${target} PROPERTIES CXX_COMPILER_LAUNCHER "" AUTOMOC OFF)
    outbox_pch_write_sum(${target} "${headers}")
endfunction()

# Called once in tests/CMakeLists.txt before the tests are added.
function(outbox_pch_targets)
    if(NOT OUTBOX_PCH)
        return()
    endif()
    outbox_pch_add(outbox_pch_core "${outbox_pch_core_headers}" Qt6::Core Qt6::Sql Qt6::Test)
    outbox_pch_add(outbox_pch_widgets "${outbox_pch_widgets_headers}"
        Qt6::Core Qt6::Sql Qt6::Test Qt6::Widgets Qt6::Charts Qt6::Network)
endfunction()

# Every target `target` links, directly or not (names of targets only).
function(outbox_pch_closure target out)
    set(seen "")
    set(todo ${target})
    while(todo)
        list(POP_FRONT todo current)
        if(current IN_LIST seen OR NOT TARGET ${current})
            continue()
        endif()
        list(APPEND seen ${current})
        foreach(property LINK_LIBRARIES INTERFACE_LINK_LIBRARIES)
            get_target_property(libs ${current} ${property})
            if(libs)
                list(APPEND todo ${libs})
            endif()
        endforeach()
    endwhile()
    set(${out} "${seen}" PARENT_SCOPE)
endfunction()

# A test program takes the precompiled header whose Qt definitions are its own: the widgets' one
# when it links Qt Widgets (QTEST_MAIN makes a QApplication then), the core one otherwise.
function(outbox_pch_use target)
    if(NOT OUTBOX_PCH)
        return()
    endif()
    outbox_pch_closure(${target} libs)
    if(Qt6::Widgets IN_LIST libs)
        set(pch outbox_pch_widgets)
    else()
        set(pch outbox_pch_core)
    endif()
    target_precompile_headers(${target} REUSE_FROM ${pch})
    target_compile_options(${target} PRIVATE "SHELL:-Xclang -fno-pch-timestamp")
endfunction()
