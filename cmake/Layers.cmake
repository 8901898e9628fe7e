# outbox_add_layer(NAME [DEPENDS LAYER...] [QT Qt6::Module...] SOURCES FILE...)
# One layer of models/: a static library outbox_NAME from the files of its folder. Its users see
# only this folder's headers (and, through the layers it links, theirs); it links only the
# layers it DEPENDS on, which must already exist, i.e. be lower (models/CMakeLists.txt adds the
# folders lowest first). So a lower layer cannot even find a higher layer's header.
function(outbox_add_layer name)
    cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "DEPENDS;QT;SOURCES")
    set(links Qt6::Core ${arg_QT})
    foreach(dep IN LISTS arg_DEPENDS)
        if(NOT TARGET outbox_${dep})
            message(FATAL_ERROR "layer ${name} depends on ${dep}, which is not a lower layer")
        endif()
        list(APPEND links outbox_${dep})
    endforeach()
    add_library(outbox_${name} STATIC ${arg_SOURCES})
    target_include_directories(outbox_${name} PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
    target_link_libraries(outbox_${name} PUBLIC ${links})
endfunction()

# The CTest test `layers_check`: every #include of models/, read from the sources, obeys the
# layer table (cmake/CheckLayers.cmake), so a header that happens to be reachable is named too.
# The CTest test `dialects_check`: no Qt SQL driver is named outside models/db/dialect/
# (cmake/CheckDialects.cmake).
function(outbox_add_dialects_check)
    add_test(NAME dialects_check COMMAND ${CMAKE_COMMAND} -DSOURCE_DIR=${PROJECT_SOURCE_DIR}
        -P ${PROJECT_SOURCE_DIR}/cmake/CheckDialects.cmake)
endfunction()

function(outbox_add_layers_check)
    add_test(NAME layers_check COMMAND ${CMAKE_COMMAND} -DSOURCE_DIR=${PROJECT_SOURCE_DIR}
        -P ${PROJECT_SOURCE_DIR}/cmake/CheckLayers.cmake)
endfunction()
