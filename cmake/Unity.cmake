# Unity builds for the libraries and programs (docs/testing.md, "Unity builds"): the sources of a
# target are compiled in batches of up to 16, each batch one compile, so that the Qt headers and
# our own are parsed once a batch instead of once a file. A cold build compiles models/, views/
# and app/ in a fraction of the time. The test programs are one source each and stay as they are.
# A helper in an anonymous namespace is seen by the other files of its batch: two helpers of one
# name in one target do not compile (share the helper, or name each after what it does).
# -DOUTBOX_UNITY=OFF compiles file by file (e.g. to see one file's own compile errors).
option(OUTBOX_UNITY "Compile the libraries' and programs' sources in batches (unity build)" ON)
if(OUTBOX_UNITY)
    set(CMAKE_UNITY_BUILD ON)
    set(CMAKE_UNITY_BUILD_BATCH_SIZE 16)
endif()

# __FILE__ in a batched source is the absolute path CMake's batch file includes it by; mapped to the
# path below the checkout, as in a file-by-file compile, so that the compile cache serves a clone
# in another folder (Q_ASSERT and a debug build's qWarning write it into the object).
add_compile_options(-fmacro-prefix-map=${PROJECT_SOURCE_DIR}/=)
